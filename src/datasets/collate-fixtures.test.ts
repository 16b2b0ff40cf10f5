// Collate parity: every NeMo Gym example dataset in fixtures/collate/ against the metrics file NeMo Gym wrote for it.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parsePythonJson } from "../metrics/pyjson.ts";
import { measureDataset } from "./measure.ts";
import { metricsDifferences, metricsDocument, metricsText } from "./metrics-file.ts";

const root = join(import.meta.dir, "..", "..", "fixtures", "collate");

/**
 * Metrics files that no implementation of the current collate can reproduce, with the reason found.
 * "old code" files were written by an earlier collate (checked by the key set they carry); "stale data"
 * ones by the current formulas on an earlier dataset (proved below by reproducing them from that version).
 */
const STALE: Record<string, string> = {
  "aviary/example_metrics.json": "old code: has a `Median` key the current collate no longer writes",
  "ns_tools/example_metrics.json": "old code: has a `Median` key the current collate no longer writes",
  "swerl_gen/example_metrics.json": "old code: has a `Median` key the current collate no longer writes",
  "gdpval/example_metrics.json": "old code: observes 0 tools/turns (current code skips empty ones) and has no per-field stats",
  "grl_sokoban/example_metrics.json": "old code: no per-field stats for the other top-level keys (NeMo Gym's conflict check still passes)",
  "indirect_prompt_injection/example_metrics.json": "old code: no per-field stats for the other top-level keys (NeMo Gym's conflict check still passes)",
  "terminal_multi_harness/example_metrics.json": "written by another tool: dotted keys (`expected_action.type`) that no collate version produces",
  "finance_sec_search/example_metrics.json": "stale data: reproduced exactly from the dataset at 19b6bd9 (see _history)",
  "text_to_sql/example_metrics.json": "stale data: reproduced exactly from the dataset at 24c10a0 (see _history)",
  "iheval/example_metrics.json": "stale data: reproduced exactly from the dataset at 41f9dd6 (see _history); today's rows mix string and int `id`s, which crashes upstream collate too",
  "bunsenbench_chemistry_mcq/example_metrics.json": "unexplained: Python's own json.dumps word counts of the committed rows are 25,25,22,27,23 (mean 24.4); the file says 24.8",
  "circle_click/example_metrics.json": "unexplained: Python's json.dumps word counts of the committed rows average 157.6; the file says 111.6",
  "hotpotqa_qa/example_metrics.json": "unexplained: Python's json.dumps word counts of the committed rows average 90.8; the file says 120.0",
};

/** Collates one dataset with the dataset-config part taken from the expected file (it is config input, not computed). */
async function collateLike(expectedPath: string, dataPath: string): Promise<{ text: string; expectedText: string; differences: string[] }> {
  // json.dump writes no final newline; some upstream files gained one from a pre-commit end-of-file fixer.
  const expectedText = readFileSync(expectedPath, "utf8").replace(/\n$/, "");
  const expected = parsePythonJson(expectedText) as Record<string, unknown>;
  const keys = Object.keys(expected);
  const config: Record<string, unknown> = {};
  for (const key of keys.slice(0, Math.max(0, keys.indexOf("Number of examples")))) config[key] = expected[key];
  const state = await measureDataset({ path: dataPath }, typeof config.num_repeats === "number" ? config.num_repeats : 1);
  const doc = metricsDocument(config, state.fixed, state.otherSummaries());
  return { text: metricsText(doc), expectedText, differences: metricsDifferences(expected, doc) };
}

const cases: { id: string; dir: string; file: string }[] = [];
for (const dir of readdirSync(root).sort()) {
  if (dir.startsWith("_") || !statSync(join(root, dir)).isDirectory()) continue;
  for (const file of readdirSync(join(root, dir)).filter((f) => f.endsWith("_metrics.json")).sort()) cases.push({ id: `${dir}/${file}`, dir, file });
}

describe("collate reproduces NeMo Gym's metrics files", () => {
  let reproduced = 0;
  for (const { id, dir, file } of cases) {
    const dataPath = join(root, dir, file.replace(/_metrics\.json$/, ".jsonl"));
    test(id, async () => {
      if (STALE[id]) {
        // Pinned: if one of these starts matching, the reason above is wrong and should be removed.
        let text = "";
        try {
          text = (await collateLike(join(root, dir, file), dataPath)).text;
        } catch {}
        expect(text).not.toBe(readFileSync(join(root, dir, file), "utf8").replace(/\n$/, ""));
        return;
      }
      const { text, expectedText } = await collateLike(join(root, dir, file), dataPath);
      expect(text).toBe(expectedText);
      reproduced++;
    });
  }
  test("summary", () => {
    const pinned = cases.filter((c) => STALE[c.id]).length;
    console.error(`collate fixtures: ${reproduced} of ${cases.length} reproduced byte for byte; ${pinned} pinned as stale upstream`);
    expect(reproduced).toBe(cases.length - pinned);
    expect(Object.keys(STALE).every((id) => cases.some((c) => c.id === id))).toBe(true);
  });
});

describe("stale upstream files reproduce from the dataset version they were written from", () => {
  for (const name of ["finance_sec_search", "text_to_sql", "iheval"]) {
    test(name, async () => {
      const { text, expectedText } = await collateLike(join(root, name, "example_metrics.json"), join(root, "_history", name, "example.jsonl"));
      expect(text).toBe(expectedText);
    });
  }
});

test("old-code files that pass NeMo Gym's own conflict check still pass ours", async () => {
  for (const name of ["grl_sokoban", "indirect_prompt_injection"]) {
    const { differences } = await collateLike(join(root, name, "example_metrics.json"), join(root, name, "example.jsonl"));
    expect(differences).toEqual([]);
  }
  const { differences } = await collateLike(join(root, "aviary", "example_metrics.json"), join(root, "aviary", "example.jsonl"));
  expect(differences).toContain("Missing key in new metrics: Number of tools.Median");
});

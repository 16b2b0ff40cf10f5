import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AvgMinMax } from "./avg-min-max.ts";
import { collate } from "./collate.ts";
import { normalizeDatasetEntry } from "./dataset-config.ts";
import { countWords, DatasetState } from "./dataset-metrics.ts";
import { measureDataset } from "./measure.ts";
import { metricsDifferences, metricsDocument, metricsText } from "./metrics-file.ts";
import { parsePythonJson } from "../metrics/pyjson.ts";
import { stringifyPython } from "../metrics/pyjson.ts";

// metrics.md §7.D: five lines, two offending.
const SPEC_D = [
  `{"responses_create_params":{"input":"What is 2+2?","temperature":0.7},"expected_answer":"4","difficulty":1,"tags":["math","easy"]}`,
  JSON.stringify({
    responses_create_params: {
      input: [
        { role: "system", content: "Be nice" },
        { role: "user", content: "Hi" },
        { role: "assistant", content: "Hello" },
        { role: "user", content: "Say ok" },
      ],
      tools: [{ type: "function", name: "f", parameters: { type: "object" }, strict: true }],
      temperature: 1.0,
    },
    expected_answer: "ok",
    difficulty: 3,
    tags: ["chat"],
    is_hard: true,
  }),
  `{"responses_create_params":{"input":[{"role":"user","content":"Name a color"}],"tools":[]},"expected_answer":"4","difficulty":2.5,"meta":{"x":1},"is_hard":false}`,
  `{"responses_create_params":{"input":"x","foo":1},"zzz":"not counted"}`,
  `not json`,
].join("\n");

describe("collate metrics (metrics.md §7.D)", () => {
  test("fixed fields, other fields, offending rows and key order", async () => {
    const state = await measureDataset({ text: SPEC_D, name: "d.jsonl" });
    expect(state.offendingIndices).toEqual([3, 4]);
    const doc = JSON.parse(JSON.stringify(metricsDocument({}, state.fixed, state.otherSummaries())));
    expect(Object.keys(doc)).toEqual([
      "Number of examples",
      "Number of tools",
      "Json-dumped number of words (proxy for token count)",
      "Number of turns",
      "Temperature",
      "expected_answer",
      "difficulty",
      "tags",
      "is_hard",
    ]);
    expect(doc["Number of examples"]).toBe(3);
    expect(doc["Number of tools"]).toEqual({ "Total # non-null values": 2, Average: 0.5, Min: 0, Max: 1, "Standard deviation": 0.707 });
    expect(doc["Number of turns"]).toEqual({ "Total # non-null values": 3, Average: 1.33, Min: 1, Max: 2, "Standard deviation": 0.577 });
    expect(doc.Temperature).toEqual({ "Total # non-null values": 2, Average: 0.85, Min: 0.7, Max: 1, "Standard deviation": 0.212 });
    expect(doc.difficulty).toEqual({ "Total # non-null values": 3, Average: 2.17, Min: 1, Max: 3, "Standard deviation": 1.04 });
    expect(doc.is_hard).toEqual({ "Total # non-null values": 2, Average: 0.5, Min: 0, Max: 1, "Standard deviation": 0.707 });
    expect(doc.expected_answer).toEqual({ unique_count: 2, total_count: 3 });
    expect(doc.tags).toEqual({ unique_count: 3, total_count: 3 });
  });

  test("word counts use Python's json.dumps separators; escaped newlines do not split words", () => {
    const row = JSON.parse(readFileSync(join(import.meta.dir, "../../fixtures/collate/mcqa/example.jsonl"), "utf8").split("\n")[0]!);
    expect(countWords(stringifyPython(row.responses_create_params, { spaced: true, ensureAscii: true }))).toBe(71);
  });

  test("integer min/max print as floats, an empty field prints 0.0 everywhere", async () => {
    const state = await measureDataset({ text: `{"responses_create_params":{"input":"a b"}}`, name: "x" });
    const text = metricsText(metricsDocument({ name: "x" }, state.fixed, []));
    expect(text).toContain(`"Min": 3.0`);
    expect(text).toContain(`"Temperature": {\n        "Total # non-null values": 0,\n        "Average": 0.0,\n        "Min": 0.0,`);
  });

  test("merge path and observe path are both kept (not bitwise equal in general)", () => {
    const xs = [0.1, 0.7, 0.2, 0.9, 0.33, 0.41, 0.05];
    const observed = new AvgMinMax();
    const merged = new AvgMinMax();
    for (const x of xs) {
      observed.observe(x);
      merged.merge(AvgMinMax.of(x));
    }
    expect(merged.total).toBe(observed.total);
    expect(Math.abs(merged.m2 - observed.m2)).toBeLessThan(1e-12);
  });

  test("repeats count each line num_repeats times", async () => {
    const state = await measureDataset({ text: `{"responses_create_params":{"input":"a"},"k":"v"}`, name: "x" }, 3);
    expect(state.fixed.examples).toBe(3);
    expect(state.otherSummaries()).toEqual([["k", { unique_count: 1, total_count: 3 }]]);
  });

  test("a field holding strings and numbers is an error naming the field and line", async () => {
    const text = `{"responses_create_params":{"input":"a"},"id":"x"}\n{"responses_create_params":{"input":"a"},"id":2}`;
    await expect(measureDataset({ text, name: "d.jsonl" })).rejects.toThrow("d.jsonl:2: field 'id'");
  });

  test("function tools need name, parameters and strict; untagged input items are accepted", () => {
    const s = new DatasetState();
    s.observeLine(0, `{"responses_create_params":{"input":"a","tools":[{"type":"function","name":"f","parameters":{}}]}}`, "x");
    s.observeLine(1, `{"responses_create_params":{"input":[{"role":"tool","tool_call_id":"1","content":"r"}]}}`, "x");
    expect(s.offendingIndices).toEqual([0]);
  });
});

describe("conflict check", () => {
  const prev = parsePythonJson(`{"a": 1.0, "b": {"c": 0.123}, "l": [1, 2], "n": 5}`);
  test("close floats, multiset lists and new keys pass", () => {
    expect(metricsDifferences(prev, parsePythonJson(`{"a": 1.004, "b": {"c": 0.1234}, "l": [2, 1], "n": 5, "new": 1}`))).toEqual([]);
  });
  test("missing keys, far floats and changed ints are reported", () => {
    const diffs = metricsDifferences(prev, parsePythonJson(`{"a": 1.01, "b": {}, "l": [1, 3], "n": 6}`));
    expect(diffs).toEqual([
      "Numeric mismatch at a: 1 != 1.01",
      "Missing key in new metrics: b.c",
      "No matching element for l[1] in new metrics (unordered)",
      "Value differs at n: 5 != 6",
    ]);
  });
});

describe("dataset config dump", () => {
  test("HEAD order with defaults, legacy identifier mirrored into source", () => {
    const entry = normalizeDatasetEntry({ name: "train", type: "train", jsonl_fpath: "d/train.jsonl", license: "MIT", huggingface_identifier: { repo_id: "o/r" } }, "a.datasets[0]");
    expect(stringifyPython(entry, { spaced: true })).toBe(
      `{"name": "train", "type": "train", "jsonl_fpath": "d/train.jsonl", "num_repeats": 1, "source": {"type": "huggingface", "repo_id": "o/r", "artifact_fpath": null}, "gitlab_identifier": null, "huggingface_identifier": {"repo_id": "o/r", "artifact_fpath": null}, "license": "MIT"}`,
    );
  });
  test("train needs a license", () => {
    expect(() => normalizeDatasetEntry({ name: "t", type: "train", jsonl_fpath: "x" }, "a.datasets[0]")).toThrow("a license is required");
  });
});

describe("collate end to end", () => {
  test("per-dataset and per-type files, agent_ref routing, unchanged and conflicting reruns", async () => {
    const dir = mkdtempSync(join(tmpdir(), "collate-"));
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      mkdirSync("data");
      writeFileSync("data/a.jsonl", `{"responses_create_params":{"input":"x y"},"k":"a"}\n{"responses_create_params":{"input":"x"},"k":"b"}\n`);
      writeFileSync("data/b.jsonl", `{"responses_create_params":{"input":"z"},"k":"c","n":1}\n`);
      const agents = [
        { name: "one_agent", datasets: [{ name: "a", type: "example", jsonl_fpath: "data/a.jsonl" }] },
        { name: "two_agent", datasets: [{ name: "b", type: "example", jsonl_fpath: "data/b.jsonl", num_repeats: 2 }, { name: "t", type: "train", jsonl_fpath: "missing.jsonl", license: "MIT" }] },
      ];
      const options = { agents, mode: "example_validation" as const, outputDir: "out", locate: async (p: string) => (existsSync(p) ? { path: p } : undefined) };
      const first = await collate(options);
      expect(first.datasets.map((d) => d.status)).toEqual(["written", "written"]);
      const typeDoc = JSON.parse(readFileSync("out/example_metrics.json", "utf8"));
      expect(typeDoc.name).toBe("a"); // config part: first dataset of the type
      expect(typeDoc["Number of examples"]).toBe(4);
      expect(typeDoc.k).toEqual({ unique_count: 1, total_count: 2 }); // last dataset's field wins, not merged
      const rows = readFileSync("out/example.jsonl", "utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(rows.map((r) => r.agent_ref.name)).toEqual(["one_agent", "one_agent", "two_agent", "two_agent"]);
      expect(existsSync("data/a_prepare.jsonl")).toBe(true);

      const again = await collate(options);
      expect(again.datasets.map((d) => d.status)).toEqual(["unchanged", "unchanged"]);

      writeFileSync("data/a.jsonl", `{"responses_create_params":{"input":"a much longer input with many more words"},"k":"a"}\n`);
      await expect(collate(options)).rejects.toThrow("conflicting aggregate metrics");
      expect(existsSync("data/a_metrics_conflict.json")).toBe(true);
      const forced = await collate({ ...options, overwriteConflicts: true });
      expect(forced.datasets[0]!.status).toBe("overwritten");
    } finally {
      process.chdir(cwd);
    }
  });
});

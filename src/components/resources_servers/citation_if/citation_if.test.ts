import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../../../testing/binary.ts";
import { fullResponse, post, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import createCitationIf from "./index.ts";
import { TERMINAL_TOOL_RESPONSE } from "./grammars.ts";
import { scoreCitationIf } from "./score.ts";

const dir = import.meta.dir;
const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
const OUTPUTS = ["reward", "match_details"];
const work = mkdtempSync(join(tmpdir(), "gym-citation-if-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("citation_if: the gates", () => {
  test("708 calls of NeMo Gym's own tests (its scorer wrapped, scripts/citation-if-golden.py): reward and match_details", () => {
    const cases = readJsonFile<{ source: string; text: string; function_call_count: number; verifier: Record<string, unknown>; reward: number; details: unknown }[]>(dir, "data/golden.json");
    expect(cases.length).toBe(708);
    const wrong = cases.filter((c) => JSON.stringify(scoreCitationIf(c.text, c.function_call_count, c.verifier as any)) !== JSON.stringify([c.reward, c.details]));
    expect(wrong.map((c) => [c.source, c.text.slice(0, 100), c.details])).toEqual([]);
  });

  test("a tool call is answered with the terminal text as plain text, and the rollout then fails gate 0", async () => {
    const app = createCitationIf();
    const res = await app.request("http://localhost/web_search", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect([res.status, await res.text()]).toEqual([200, TERMINAL_TOOL_RESPONSE]);
    const verifier = { mode: "cite", grammar: "ascii_brackets", valid_id_set: ["citation_1"], expected_ids: null };
    const response = fullResponse({ output: [{ type: "function_call", name: "web_search", arguments: "{}" }, { type: "message", content: [{ type: "output_text", text: "Paris [citation_1]" }] }] });
    const got = await post(app, "/verify", { responses_create_params: { input: [] }, response, verifier });
    expect([got.status, got.body.reward, got.body.match_details.gate_failed, Object.keys(got.body)]).toEqual([200, 0, "structural", ["responses_create_params", "response", "reward", "verifier", "match_details"]]);
  });
});

describe("citation_if: NeMo Gym's published rollouts", () => {
  test("5 of 5 rewards and match_details reproduce through /verify", async () => {
    const app = createCitationIf();
    for (const rollout of rollouts) {
      const got = await post(app, "/verify", { responses_create_params: rollout.responses_create_params, response: rollout.response, verifier: rollout.verifier });
      expect([got.status, got.body.reward, got.body.match_details]).toEqual([200, rollout.reward, rollout.match_details]);
    }
  });

  test("gym eval reverify on the binary re-scores them exactly (reverify mode unknown: --force)", async () => {
    const inputs = rollouts.map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).filter(([k]) => !OUTPUTS.includes(k) && k !== "response"))));
    writeFileSync(join(work, "inputs.jsonl"), `${inputs.join("\n")}\n`);
    writeFileSync(join(work, "rollouts.jsonl"), `${rollouts.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const r = await gym(["eval", "reverify", "--resources-server", "citation_if", "--inputs", join(work, "inputs.jsonl"), "--rollouts", join(work, "rollouts.jsonl"), "-o", join(work, "reverified.jsonl"), "--force"]);
    expect(r.stderr).not.toContain("Error");
    expect(r.code).toBe(0);
    const got = readFileSync(join(work, "unsafe_reverified.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const key = (row: any) => [row._ng_task_index, row.reward, row.match_details];
    expect(got.map(key).sort()).toEqual(rollouts.map(key).sort());
  }, 120_000);

  test("gym eval run on the binary with replay_model: the published rewards end to end", async () => {
    const r = await gym(["eval", "run", "--resources-server", "citation_if", "--model-type", "replay_model", "+policy_model.responses_api_models.replay_model.rollouts_jsonl_fpath=resources_servers/citation_if/data/example_rollouts.jsonl", "--split", "example", "-o", join(work, "run.jsonl")], { cwd: work });
    expect(r.stderr).toContain("Coverage: 5 of 5 rollouts scored (5 succeeded)");
    const got = readFileSync(join(work, "run.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const byUuid = (rows: any[]) => rows.map((row) => [JSON.stringify(row.verifier), row.reward]).sort();
    expect(byUuid(got)).toEqual(byUuid(rollouts));
  }, 120_000);
});

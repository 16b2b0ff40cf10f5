import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../../../testing/binary.ts";
import { post, readJsonlFile } from "../_common/testing.ts";
import createLcNiah, { inputText, overlaps } from "./index.ts";

const dir = import.meta.dir;
const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
const OUTPUTS = ["reward", "answer_score", "overlap_seq_match", "overlap_ngram16", "overlap_lcs", "reasoning_overlap"];
const work = mkdtempSync(join(tmpdir(), "gym-lc-niah-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const verifyInput = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).filter(([k]) => !OUTPUTS.includes(k)));

describe("lc_niah: the overlap signals (values from NeMo Gym's app.py static methods under CPython 3.11)", () => {
  const edges = Array.from({ length: 60 }, (_, i) => `n${i} -> n${(i * 7) % 50}`).join("\n");
  const input = `Graph:\n${edges}\nFind the parents of node n7.  ÉTÉ\u3000Σ final`;
  const cases: [string, [number, number, number]][] = [
    ["", [0, 0, 0]],
    [`I will copy: ${input.slice(0, 400)} then think about it.`, [0.7298747763864043, 0.9333333333333333, 0.923963133640553]],
    ["The parents are n1 and n8 because n1 -> n7 and n8 -> n7.", [0.03513513513513514, 0, 0.21428571428571427]],
    ["été σ FINAL n0 -> n0 n1 -> n7", [0.030855539971949508, 0, 0.6206896551724138]],
  ];
  test("difflib ratio (autojunk), distinct 16-grams, longest common substring (no autojunk) over the normalized texts", () => {
    for (const [reasoning, [seq, ngram, lcs]] of cases) expect(overlaps(reasoning, input)).toEqual({ seq_match: seq, ngram16: ngram, lcs });
    expect(overlaps(Array(20).fill("word").join(" "), Array(30).fill("word").join(" "))).toEqual({ seq_match: 0.7983870967741935, ngram16: 1, lcs: 1 });
  });
  test("the input text: a string as is; message contents and non-empty block texts joined by newlines", () => {
    expect(inputText({ input: "plain" })).toBe("plain");
    expect(inputText({ input: [{ role: "system", content: "" }, { role: "user", content: [{ type: "input_text", text: "a" }, { type: "input_text", text: "" }, { type: "input_text", text: "b" }] }, { type: "function_call_output", output: "x" }] })).toBe("\na\nb");
  });
  test("the config rules: base ignores the overlap, minus subtracts it, an unknown rule is refused", async () => {
    const row = verifyInput(rollouts[4]!);
    const published = rollouts[4]! as Record<string, any>;
    const base = await post(createLcNiah({ overlap_grading_rule: "base" }), "/verify", row);
    expect(base.body.reward).toBe(published.answer_score);
    const minus = await post(createLcNiah({ overlap_grading_rule: "minus", overlap_metric_rule: "seq_match" }), "/verify", row);
    expect([minus.body.reward, minus.body.reasoning_overlap]).toEqual([published.answer_score - published.overlap_seq_match, published.overlap_seq_match]);
    expect(() => createLcNiah({ overlap_metric_rule: "rouge" })).toThrow(/overlap_metric_rule/);
  });
});

describe("lc_niah: NeMo Gym's published rollouts", () => {
  test("5 of 5 rows reproduce through /verify: every field, in order (the response as gym's Responses model dumps it)", async () => {
    const app = createLcNiah();
    for (const rollout of rollouts) {
      const r = await post(app, "/verify", verifyInput(rollout));
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(Object.keys(rollout));
      expect({ ...r.body, response: null }).toEqual({ ...rollout, response: null });
    }
    expect(rollouts).toHaveLength(5);
  });

  test("gym eval reverify on the binary re-scores them exactly (reverify mode unknown, as NeMo Gym: --force)", async () => {
    const stamped: Record<string, any>[] = rollouts.map((r, i) => ({ ...r, _ng_task_index: i, _ng_rollout_index: 0 }));
    writeFileSync(join(work, "rollouts_materialized_inputs.jsonl"), `${stamped.map((r) => JSON.stringify(Object.fromEntries(Object.entries(verifyInput(r)).filter(([k]) => k !== "response")))).join("\n")}\n`);
    writeFileSync(join(work, "rollouts.jsonl"), `${stamped.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const r = await gym(["eval", "reverify", "--resources-server", "lc_niah", "--inputs", join(work, "rollouts_materialized_inputs.jsonl"), "--rollouts", join(work, "rollouts.jsonl"), "-o", join(work, "reverified.jsonl"), "--force"]);
    expect(r.stderr).not.toContain("Error");
    expect(r.code).toBe(0);
    const got = readFileSync(join(work, "unsafe_reverified.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(got.map((row) => OUTPUTS.map((k) => row[k]))).toEqual(stamped.map((row) => OUTPUTS.map((k) => row[k])));
  }, 120_000);

  test("gym eval run --resources-server lc_niah against mock_model scores the example rows (NeMo Gym ships no lc_niah benchmark)", async () => {
    const r = await gym(["eval", "run", "--resources-server", "lc_niah", "--model-type", "mock_model", "-o", join(work, "run", "rollouts.jsonl")]);
    expect(r.stderr).toMatch(/Coverage: (\d+) of \1 rollouts scored \(\1 succeeded\)/);
    expect(r.code).toBe(0);
    const first = JSON.parse(readFileSync(join(work, "run", "rollouts.jsonl"), "utf8").split("\n")[0]!);
    expect(first.agent_ref.name).toBe("lc_niah_simple_agent");
    expect(Object.keys(first)).toEqual(expect.arrayContaining(["answer_score", "overlap_lcs", "reasoning_overlap"]));
  }, 120_000);
});

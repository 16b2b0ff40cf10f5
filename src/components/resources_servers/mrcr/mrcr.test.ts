import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../../../testing/binary.ts";
import { post, readJsonlFile } from "../_common/testing.ts";
import createMrcr, { gradeMrcr } from "./index.ts";

const dir = import.meta.dir;
const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
const OUTPUTS = ["response", "reward", "prefix_matched", "seq_match_ratio"];

/**
 * The published rows carry Chat Completions usage (`prompt_tokens`, …), which NeMo Gym's own NeMoGymResponse model
 * (openai's ResponseUsage: input_tokens, output_tokens and their details required) refuses with a 422 at 07d6b0d, as
 * ours does. Re-scoring them needs that usage in the Responses shape; nothing the grade reads changes.
 */
function responsesUsage(row: Record<string, any>): Record<string, any> {
  const u = row.response.usage;
  const usage = { input_tokens: u.prompt_tokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: u.completion_tokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: u.total_tokens };
  return { ...row, response: { ...row.response, usage } };
}
const rescorable = rollouts.map(responsesUsage);
const work = mkdtempSync(join(tmpdir(), "gym-mrcr-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("mrcr: the grade (values from CPython 3.11's difflib)", () => {
  test("prefix gate, code-point sequences (astral characters), autojunk on long texts, identical texts", () => {
    expect(gradeMrcr("abc123 hello 😀 world", "abc123 hello 😀 world!", "abc123")).toBe(0.9655172413793104);
    expect(gradeMrcr(`abc123 ${"ab".repeat(150)}x`, `abc123 ${"ba".repeat(150)}`, "abc123")).toBe(0.003316749585406302);
    expect(gradeMrcr("xyz hi", "abc123 hi", "abc123")).toBe(0);
    expect(gradeMrcr("p:𝔸𝔹𝔻", "p:𝔸𝔹ℂ𝔻", "p:")).toBe(0.8571428571428571);
    expect(gradeMrcr("abc123", "abc123", "abc123")).toBe(1);
  });
  test("missing random_string_to_prepend is a 422 naming the field", async () => {
    const reply = await post(createMrcr(), "/verify", { responses_create_params: { input: "hi" }, response: { output: [] }, expected_answer: "a", n_needles: 2, n_tokens: 10 });
    expect(reply.status).toBe(422);
    expect(reply.body.detail.map((d: any) => d.loc.join("."))).toContain("body.random_string_to_prepend");
  });
});

describe("mrcr: NeMo Gym's published rollouts", () => {
  test("as published, every row is a 422 on response.usage (NeMo Gym's current model refuses it too)", async () => {
    const reply = await post(createMrcr(), "/verify", Object.fromEntries(Object.entries(rollouts[0]!).filter(([k]) => k === "response" || !OUTPUTS.includes(k))));
    expect(reply.status).toBe(422);
    expect(reply.body.detail.map((d: any) => d.loc.join("."))).toContain("body.response.usage.input_tokens");
  });

  test("5 of 5 rewards, ratios and prefix flags reproduce through /verify (usage in the Responses shape)", async () => {
    const app = createMrcr();
    for (const rollout of rescorable) {
      const input = Object.fromEntries(Object.entries(rollout).filter(([k]) => !OUTPUTS.includes(k) || k === "response"));
      const reply = await post(app, "/verify", input);
      expect(reply.status).toBe(200);
      expect([reply.body.reward, reply.body.seq_match_ratio, reply.body.prefix_matched]).toEqual([rollout.reward, rollout.seq_match_ratio, rollout.prefix_matched]);
    }
    expect(rollouts).toHaveLength(5);
  });

  test("gym eval reverify on the binary re-scores them exactly (reverify mode unknown, as NeMo Gym: --force)", async () => {
    const stamps = (i: number) => ({ _ng_task_index: i, _ng_rollout_index: 0, agent_ref: { name: "mrcr_simple_agent" } });
    const inputs = rescorable.map((r, i) => JSON.stringify({ ...Object.fromEntries(Object.entries(r).filter(([k]) => !OUTPUTS.includes(k))), ...stamps(i) }));
    writeFileSync(join(work, "rollouts_materialized_inputs.jsonl"), `${inputs.join("\n")}\n`);
    writeFileSync(join(work, "rollouts.jsonl"), `${rescorable.map((r, i) => JSON.stringify({ ...r, ...stamps(i) })).join("\n")}\n`);
    const r = await gym(["eval", "reverify", "--resources-server", "mrcr", "--inputs", join(work, "rollouts_materialized_inputs.jsonl"), "--rollouts", join(work, "rollouts.jsonl"), "-o", join(work, "reverified.jsonl"), "--force"]);
    expect(r.stderr).not.toContain("Error");
    expect(r.code).toBe(0);
    const got = readFileSync(join(work, "unsafe_reverified.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(got.map((row) => [row._ng_task_index, row.reward])).toEqual(rollouts.map((row, i) => [i, row.reward]));
    const metrics = JSON.parse(readFileSync(join(work, "unsafe_reverified_aggregate_metrics.json"), "utf8"));
    expect(JSON.stringify(metrics)).toContain("n_needles=2/pass@1/accuracy");
  }, 120_000);
});

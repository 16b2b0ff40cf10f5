import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../../../testing/binary.ts";
import { fullResponse, post, readJsonlFile } from "../_common/testing.ts";
import createRuler, { rulerScore, SUBSETS } from "./index.ts";

const dir = import.meta.dir;
const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
const examples = readJsonlFile(dir, "data/example.jsonl");
const work = mkdtempSync(join(tmpdir(), "gym-ruler-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const reply = (text: string) => fullResponse({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }] });
/** A published rollout with the task fields of example row i (the file stores none of its own). */
const withFields = (r: Record<string, any>, i: number) => ({ responses_create_params: r.responses_create_params, response: r.response, outputs: examples[i]!.outputs, length: examples[i]!.length, subset: examples[i]!.subset });

describe("ruler: the grade (values from NeMo Gym's app.py helpers under CPython 3.11)", () => {
  test("share of references found (case-insensitive); QA subsets: any one", () => {
    expect(rulerScore("The answer: RIM, VAR X", ["rim", "X", "q"], "vt")).toBe(0.6666666666666666);
    expect(rulerScore("Paris, France", ["paris", "London"], "qa_1")).toBe(1);
    expect(rulerScore("x", ["y"], "qa_2")).toBe(0);
    expect(rulerScore("ÉTÉ straße", ["été", "STRASSE"], "niah_single_1")).toBe(0.5);
  });
  test("the score also under the subset's name, the other subsets null, in NeMo Gym's key order", async () => {
    const r = await post(createRuler(), "/verify", { responses_create_params: { input: "q" }, response: reply("  Answer: 6745121 \n"), outputs: ["6745121"], length: 4092, subset: "niah_single_1" });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(["responses_create_params", "response", "reward", "outputs", "length", "subset", ...SUBSETS]);
    expect([r.body.reward, r.body.niah_single_1, r.body.vt]).toEqual([1, 1, null]);
  });
  test("empty outputs fail as Python's division and max() do (HTTP 500)", async () => {
    for (const subset of ["vt", "qa_1"]) {
      const r = await post(createRuler(), "/verify", { responses_create_params: { input: "q" }, response: reply("a"), outputs: [], length: 1, subset });
      expect(r.status).toBe(500);
    }
  });
});

describe("ruler: NeMo Gym's published rollouts", () => {
  test("as published, every row lacks outputs, length and subset: a 422, as NeMo Gym's RulerVerifyRequest answers", async () => {
    for (const rollout of rollouts) {
      const r = await post(createRuler(), "/verify", { responses_create_params: rollout.responses_create_params, response: rollout.response });
      expect(r.status).toBe(422);
      expect(r.body.detail.map((d: any) => d.loc.join("."))).toEqual(["body.outputs", "body.length", "body.subset"]);
    }
  });
  test("5 of 5 rewards reproduce with the vt fields of the example rows (their replies hold no output text: 0)", async () => {
    const app = createRuler();
    for (const [i, rollout] of rollouts.entries()) {
      const r = await post(app, "/verify", withFields(rollout, i));
      expect(r.status).toBe(200);
      expect([r.body.reward, r.body.vt]).toEqual([rollout.reward, rollout.reward]);
    }
    expect(rollouts).toHaveLength(5);
  });
  test("gym eval reverify on the binary re-scores them (reverify mode unknown, as NeMo Gym: --force)", async () => {
    const stamped = rollouts.map((r, i) => ({ ...withFields(r, i), _ng_task_index: i, _ng_rollout_index: 0, agent_ref: { type: "responses_api_agents", name: "ruler_simple_agent" } }));
    writeFileSync(join(work, "rollouts_materialized_inputs.jsonl"), `${stamped.map(({ response, ...row }) => JSON.stringify(row)).join("\n")}\n`);
    writeFileSync(join(work, "rollouts.jsonl"), `${stamped.map((r, i) => JSON.stringify({ ...r, reward: rollouts[i]!.reward })).join("\n")}\n`);
    const r = await gym(["eval", "reverify", "--resources-server", "ruler", "--inputs", join(work, "rollouts_materialized_inputs.jsonl"), "--rollouts", join(work, "rollouts.jsonl"), "-o", join(work, "reverified.jsonl"), "--force"]);
    expect(r.stderr).not.toContain("Error");
    expect(r.code).toBe(0);
    const got = readFileSync(join(work, "unsafe_reverified.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(got.map((row) => row.reward)).toEqual(rollouts.map((row) => row.reward));
  }, 120_000);
});

import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { reverifyPublished } from "../../../testing/published-rollouts.ts";
import { post, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import { candidateLabels, extractAnswer, matchLabel } from "./answer.ts";
import createSpartqa from "./index.ts";

const dir = import.meta.dir;
type Case = { args: any[]; expected: any };
const golden = readJsonFile<Record<string, Case[]>>(join(dir, "..", "..", "..", ".."), "fixtures/qa/golden.json");
const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
const OUTPUTS = ["reward", "exact", "parsed", "extracted", "predicted_label"];

describe("spartqa: answer reading (labelled by NeMo Gym's own app.py functions, scripts/qa-golden.py)", () => {
  test("_extract_answer: reasoning dropped, last real answer capture, its first clean line", () => {
    for (const { args, expected } of golden["spartqa.extract_answer"]!) expect([args[0], extractAnswer(args[0])]).toEqual([args[0], expected]);
  });
  test("match_label over candidate_labels: equal keys, aliases, one most specific contained label", () => {
    for (const { args, expected } of golden["spartqa.match_label"]!) expect([...args, matchLabel(args[0], candidateLabels(args[1]))]).toEqual([...args, expected]);
  });
});

describe("spartqa: NeMo Gym's published rollouts", () => {
  test("5 of 5: reward, exact, parsed, extracted and predicted_label through /verify", async () => {
    const app = createSpartqa();
    for (const rollout of rollouts) {
      const r = await post(app, "/verify", Object.fromEntries(Object.entries(rollout).filter(([k]) => !OUTPUTS.includes(k))));
      expect(r.status).toBe(200);
      expect(OUTPUTS.map((k) => r.body[k])).toEqual(OUTPUTS.map((k) => rollout[k]));
      expect(Object.keys(r.body).slice(0, 7)).toEqual(["responses_create_params", "response", ...OUTPUTS]);
    }
    expect(rollouts).toHaveLength(5);
  });
  test("gym eval reverify on the binary re-scores them exactly; its metrics are NeMo Gym's (the both/none slices)", async () => {
    // NeMo Gym's own spartqa.yaml spells the licence `CC-BY-SA-4.0`, outside its DatasetConfig's licence literals: its
    // agent block fails validation there as here, so the server is reached the way NeMo Gym's docs allow.
    const refused = await reverifyPublished("spartqa", rollouts, OUTPUTS, { force: true });
    expect(refused.stderr).toContain("datasets -> 0 -> license: Must be one of");
    const r = await reverifyPublished("spartqa", rollouts, OUTPUTS, { force: true, args: ["+error_on_almost_servers=false"] });
    expect(r.code).toBe(0);
    expect(r.rows.map((row) => [row._ng_task_index, row.reward, row.predicted_label])).toEqual(rollouts.map((row) => [row._ng_task_index, row.reward, row.predicted_label]));
    expect(JSON.stringify(r.metrics)).toContain('"mean_reward":0.8,"count":5,"exact_match_rate":0.4,"parse_rate":1,"label_resolve_rate":0.8,"accuracy_both_of_them":1,"accuracy_none_of_them":1');
  }, 120_000);
  test("the options ride in verifier_metadata when the row has none (nemo-evaluator's driver drops lists)", async () => {
    const rollout = rollouts[3]!;
    const { options: _o, target: _t, ...rest } = Object.fromEntries(Object.entries(rollout).filter(([k]) => !OUTPUTS.includes(k))) as Record<string, any>;
    const r = await post(createSpartqa(), "/verify", rest);
    expect([r.body.reward, r.body.predicted_label, r.body.target, r.body.options]).toEqual([0, "", "", []]);
  });
});

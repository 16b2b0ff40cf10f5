import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { reverifyPublished } from "../../../testing/published-rollouts.ts";
import { fullResponse, post, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import createRagtruth from "./index.ts";

const dir = import.meta.dir;
type Case = { args: any[]; expected: any };
const golden = readJsonFile<Record<string, Case[]>>(join(dir, "..", "..", "..", ".."), "fixtures/qa/golden.json");
const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
const OUTPUTS = ["reward", "pred_halu", "parse_fail", "extracted"];
const reply = (text: string) => fullResponse({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }] });

describe("ragtruth: the verdict (labelled by NeMo Gym's own app.py, scripts/qa-golden.py)", () => {
  test("42 replies × think tag: pred_halu, parse_fail and the extracted list as json.dumps writes it", async () => {
    const apps = { think: createRagtruth(), reasoning: createRagtruth({ think_tag: "reasoning" }) } as Record<string, ReturnType<typeof createRagtruth>>;
    for (const { args, expected } of golden["ragtruth.verdict"]!) {
      const r = await post(apps[args[1]]!, "/verify", { responses_create_params: { input: "q" }, response: reply(args[0]), is_halu: true, task_type: "QA" });
      expect([args, r.body.pred_halu, r.body.parse_fail, r.body.extracted]).toEqual([args, Number(expected[0]), Number(expected[1]), expected[2]]);
    }
  });
  test("lax bool is_halu; response keys as NeMo Gym's model dumps them", async () => {
    const r = await post(createRagtruth(), "/verify", { responses_create_params: { input: "q" }, response: reply('{"hallucination list": []}'), is_halu: "false", task_type: "QA", extra_field: 7 });
    expect([r.body.reward, r.body.is_halu]).toEqual([1, 0]);
    expect(Object.keys(r.body)).toEqual(["responses_create_params", "response", "reward", "task_type", "is_halu", "pred_halu", "parse_fail", "extracted", "extra_field"]);
  });
});

describe("ragtruth: NeMo Gym's published rollouts", () => {
  test("5 of 5 through /verify", async () => {
    const app = createRagtruth();
    for (const rollout of rollouts) {
      const r = await post(app, "/verify", Object.fromEntries(Object.entries(rollout).filter(([k]) => !OUTPUTS.includes(k))));
      expect(r.status).toBe(200);
      expect(OUTPUTS.map((k) => r.body[k])).toEqual(OUTPUTS.map((k) => rollout[k]));
    }
    expect(rollouts).toHaveLength(5);
  });
  test("gym eval reverify on the binary re-scores them exactly; precision/recall/F1 overall and per task type", async () => {
    const r = await reverifyPublished("ragtruth", rollouts, OUTPUTS, { force: true });
    expect(r.code).toBe(0);
    expect(r.rows.map((row) => [row._ng_task_index, row.reward, row.extracted])).toEqual(rollouts.map((row) => [row._ng_task_index, row.reward, row.extracted]));
    const metrics = (r.metrics as any[])[0].agent_metrics;
    expect(metrics).toMatchObject({ mean_reward: 1, count: 5, parse_fail_rate: 0, precision: 1, recall: 1, f1: 1, "task_type/Data2txt/precision": 1, "task_type/QA/count": 2, "task_type/Summary/accuracy": 1 });
    expect(Object.keys((r.metrics as any[])[0].key_metrics)).toEqual(["mean_reward", "f1", "precision", "recall", "task_type/Data2txt/f1", "task_type/Data2txt/accuracy", "task_type/QA/f1", "task_type/QA/accuracy", "task_type/Summary/f1", "task_type/Summary/accuracy"]);
  }, 120_000);
});

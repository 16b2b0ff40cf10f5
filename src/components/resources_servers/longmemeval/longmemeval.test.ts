import { describe, expect, test } from "bun:test";
import { post, readJsonlFile } from "../_common/testing.ts";
import { judgeDirectory, promptOfRequest, replayJudgeApp, textResponse, type JudgeLookup } from "../_judge/replay.ts";
import { rescore } from "../_judge/parity.ts";
import createServer, { isBadMetadata, stripThink } from "./index.ts";

const dir = import.meta.dir;
type Row = Record<string, any>;
const rows = readJsonlFile<Row>(dir, "data/example.jsonl");
const rollouts = readJsonlFile<Row>(dir, "data/example_rollouts.jsonl");
const server = (lookup: JudgeLookup) =>
  createServer(
    { judge_model_server: { type: "responses_api_models", name: "judge_model" }, judge_responses_create_params: { input: [], max_output_tokens: 64, temperature: 0.0 }, judge_endpoint_max_concurrency: 32 },
    { name: "longmemeval", servers: judgeDirectory("judge_model", replayJudgeApp(lookup)) },
  );
const answered = (meta: Row, text: string) => ({ responses_create_params: rows[0]!.responses_create_params, verifier_metadata: meta, response: { ...rollouts[0]!.response, output: [{ id: "m", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }] } });

describe("longmemeval: published rollouts re-scored by a replaying judge", () => {
  test("5 of 5 equal in every value (the stored judge_raw answered to the rubric carrying that row's question and answer); key order pinned", async () => {
    const used = new Set<Row>();
    const lookup: JudgeLookup = (_path, body) => {
      const prompt = promptOfRequest(body);
      const hit = rollouts.find((r) => !used.has(r) && prompt.includes(`Question: ${r.verifier_metadata.question}\n\n`) && prompt.includes(`Model Response: ${r.generation}`));
      if (hit) used.add(hit);
      return hit && textResponse(hit.judge_raw);
    };
    // Pinned: the published rows carry verifier_metadata right after responses_create_params; app.py's response
    // model (extra allowed) dumps it after its own fields under pydantic 2 (checked with 2.13), as this port does.
    const key = ["(key order)"];
    expect(await rescore(server(lookup), rollouts, rows)).toEqual([key, key, key, key, key]);
    expect(used.size).toBe(5);
  });
});

describe("longmemeval: rules", () => {
  const meta = { question_id: "q1", question_type: "multi-session", question: "Where?", answer: "Paris" };
  test("think stripping, bad metadata", () => {
    expect([stripThink("<think>a</think> b"), stripThink("x <think>unclosed"), stripThink("a</think> b"), stripThink("plain")]).toEqual(["b", "x", "b", "plain"]);
    expect([isBadMetadata(null), isBadMetadata({}), isBadMetadata({ question_type: "x" }), isBadMetadata(meta)]).toEqual([true, true, true, false]);
  });
  test("the rubric by type, the abstention rubric for _abs rows; yes anywhere scores; failures stay in the row", async () => {
    const seen: string[] = [];
    const yes = await post(server((_p, b) => (seen.push(promptOfRequest(b)), textResponse("Yes."))), "/verify", answered({ ...meta, question_id: "q1_abs" }, "I don't know"));
    expect(seen[0]).toContain("Does the model correctly identify the question as unanswerable?");
    expect([yes.body.reward, yes.body.abstention, yes.body.judge_label]).toEqual([1, true, true]);
    const failed = await post(server(() => undefined), "/verify", answered(meta, "Paris"));
    expect([failed.body.reward, failed.body.judge_error, failed.body._ng_failure_class]).toEqual([0, "judge_call_failed", undefined]);
    expect(failed.body.judge_error_detail).toContain("404");
    const unknown = await post(server(() => undefined), "/verify", answered({ ...meta, question_type: "new-type" }, "Paris"));
    expect(unknown.body.judge_error).toBe("unknown_question_type");
    const empty = await post(server(() => undefined), "/verify", answered(meta, "<think>only thinking</think>"));
    expect([empty.body.empty_response, empty.body.judge_error]).toEqual([true, null]);
  });
  test("metrics: judge failures and unknown types excluded from accuracy, counted", async () => {
    const r = (reward: number, extra: Row) => ({ _ng_task_index: 0, _ng_rollout_index: 0, reward, question_type: "multi-session", ...extra });
    const reply = await post(server(() => undefined), "/aggregate_metrics", {
      verify_responses: [r(1, { judge_error: null, abstention: true }), r(0, { judge_error: "judge_call_failed" }), r(0, { judge_error: "empty_judge_output" }), r(0, { judge_error: "weird" })].map((x, i) => ({ ...x, _ng_task_index: i })),
    });
    const m = reply.body.agent_metrics;
    expect([m.n_judge_call_failed, m.n_empty_judge_output, m.n_judge_errors_other, m.n_excluded, m.count]).toEqual([1, 1, 1, 1, 3]);
    expect([m.accuracy, m.accuracy_strict, m["abstention/accuracy"], m["question_type/multi-session/count"]]).toEqual([1 / 3, 0.25, 1, 3]);
    expect(reply.body.key_metrics).toEqual({ accuracy: 1 / 3, "abstention/accuracy": 1, n_excluded: 1 });
  });
});

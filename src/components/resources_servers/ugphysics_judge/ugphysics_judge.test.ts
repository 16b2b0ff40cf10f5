import { describe, expect, test } from "bun:test";
import { post, readJsonlFile } from "../_common/testing.ts";
import { judgeDirectory, replayJudgeApp, textCompletion, textResponse, type JudgeLookup } from "../_judge/replay.ts";
import { rescore } from "../_judge/parity.ts";
import createServer, { parseJudgement } from "./index.ts";

const dir = import.meta.dir;
type Row = Record<string, any>;
const rows = readJsonlFile<Row>(dir, "data/example.jsonl");
const rollouts = readJsonlFile<Row>(dir, "data/example_rollouts.jsonl");
const server = (lookup: JudgeLookup, extra: Row = {}) =>
  createServer(
    { judge_model_server: { type: "responses_api_models", name: "judge_model" }, judge_responses_create_params: { input: [], max_output_tokens: 2048, temperature: 0.0, top_p: 1.0 }, use_chat_completions_for_judge: true, ...extra },
    { name: "ugphysics_judge", servers: judgeDirectory("judge_model", replayJudgeApp(lookup)) },
  );
const answered = (text: string) => ({ ...rows[0]!, response: { ...rollouts[0]!.response, output: [{ id: "m", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }] } });

describe("ugphysics_judge: published rollouts re-scored", () => {
  test("5 of 5 rewards and verdicts, 4 of 5 exact, key order included (all symbolic hits: verdict TRUE, no judge call)", async () => {
    // Pinned: row 2's extracted_answer is sympy's str() of an unevaluated latex2sympy tree, which the math-verify
    // port (../_math_verify) prints differently: NeMo Gym "(pi**2*hbar**2)/((2*l**2*m))", ours "pi**2*hbar**2/(2*m*l**2)".
    expect(await rescore(server(() => undefined), rollouts, rows)).toEqual([[], [], ["extracted_answer"], [], []]);
  });
});

describe("ugphysics_judge: the judge on a symbolic miss", () => {
  test("the Equivalence Judgement header first, else the last standalone TRUE/FALSE, else null", () => {
    expect(parseJudgement("## Equivalence Judgement\n  true\n… FALSE")).toBe(true);
    expect(parseJudgement("TRUE at first, but FALSE")).toBe(false);
    expect(parseJudgement("UNTRUE")).toBeNull();
    expect(parseJudgement(null)).toBeNull();
  });
  test("the four placeholders filled; TRUE scores 1; an unparseable verdict is null and 0; judge off: FALSE", async () => {
    const seen: Row[] = [];
    const reply = await post(server((_p, b) => (seen.push(b), textCompletion("## Equivalence Judgement\nTRUE"))), "/verify", answered("E = 7 J"));
    const prompt = seen[0]!.messages.at(-1).content as string;
    expect(prompt).toContain(rows[0]!.solution.slice(0, 40));
    expect(prompt).toContain("E = 7 J");
    expect([reply.body.reward, reply.body.extracted_verdict, reply.body.question, reply.body.solution]).toEqual([1, "TRUE", rows[0]!.question, rows[0]!.solution]);
    const unsure = await post(server(() => textResponse("hmm"), { use_chat_completions_for_judge: false }), "/verify", answered("E = 7 J"));
    expect([unsure.body.reward, unsure.body.extracted_verdict]).toEqual([0, null]);
    const off = await post(server(() => undefined, { should_use_judge: false }), "/verify", answered("E = 7 J"));
    expect([off.body.reward, off.body.extracted_verdict, off.body.judge_evaluations]).toEqual([0, "FALSE", null]);
    expect((await post(server(() => undefined), "/verify", answered("E = 7 J"))).body._ng_failure_class).toBe("judge_failed");
  });
  test("metrics: symbolic and judge accuracy, majority over the verdict, per subject", async () => {
    const reply = await post(server(() => undefined), "/aggregate_metrics", {
      verify_responses: [
        { _ng_task_index: 0, _ng_rollout_index: 0, reward: 1, library_reward: 0, extracted_verdict: "TRUE", subject: "Optics" },
        { _ng_task_index: 1, _ng_rollout_index: 0, reward: 0, library_reward: 0, extracted_verdict: "FALSE", subject: "Thermodynamics" },
      ],
    });
    const m = reply.body.agent_metrics;
    expect([m["pass@1/judge_accuracy"], m["pass@1/symbolic_accuracy"]]).toEqual([50, 0]);
    expect(Object.keys(m).some((k) => k.startsWith("Optics/"))).toBe(true);
  });
});

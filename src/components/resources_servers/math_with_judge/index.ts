/**
 * math_with_judge: math-verify 0.8.0's verdict (the port in ../_math_verify) on the joined output text against
 * `\boxed{expected_answer}`, with NeMo Gym's response fields, time limit, concurrency cap and metrics.
 * With `should_use_judge: true` a library_reward ≤ 0.5 goes to the equality judge (judge.ts) through
 * `judge_model_server` (the judge component, ../_judge).
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { computePassMajorityMetrics, passMajorityKeyMetrics } from "../../../metrics/pass-k.ts";
import { outputText } from "../_common/output.ts";
import { VerifierPool } from "../_math_verify/pool.ts";
import { Judge, judgeConfigFields } from "../_judge/index.ts";
import { judgeEquality } from "./judge.ts";

export interface MathWithJudgeConfig extends JsonObject {
  judge_model_server: JsonObject;
  judge_responses_create_params: JsonObject;
  should_use_judge: boolean;
  library_verifier_timeout_seconds: number;
  library_verifier_max_concurrency: number;
}

/** `_math_score_fn`: symbolic_accuracy always, judge_accuracy where the judge ran (subclasses reuse it). */
export function mathScoreFn(r: JsonObject): Record<string, number> {
  const scores: Record<string, number> = {};
  if ("library_reward" in r) scores.symbolic_accuracy = Number(r.library_reward);
  if (r.judge_evaluations !== undefined && r.judge_evaluations !== null) scores.judge_accuracy = Number(r.reward);
  return scores;
}

export default defineResourcesServer<MathWithJudgeConfig, { pool: VerifierPool; judge: Judge }>({
  name: "math_with_judge",
  className: "LibraryJudgeMathResourcesServer",
  reverifyMode: "stateless",
  config: {
    fields: {
      ...judgeConfigFields({ maxConcurrency: null }),
      should_use_judge: py.withDefault(py.bool(), () => true),
      library_verifier_timeout_seconds: py.withDefault(py.float(), () => 10.0),
      library_verifier_max_concurrency: py.withDefault(py.int(), () => 32),
    },
  },
  createState: (config, { servers }) => ({
    pool: new VerifierPool(config.library_verifier_timeout_seconds, config.library_verifier_max_concurrency),
    judge: new Judge(config as never, servers),
  }),
  verify: {
    request: { fields: { question: py.str(), expected_answer: py.str() } },
    response: ["expected_answer", "extracted_answer", "library_reward", "judge_evaluations"],
    async handler(body, { config, state }) {
      const text = outputText(body.response as JsonObject);
      const expected = body.expected_answer as string;
      const verdict = await state.pool.verify(expected, text);
      const library = verdict.reward;
      const out = { expected_answer: expected, extracted_answer: verdict.extracted_answer, library_reward: library };
      if (!config.should_use_judge || library > 0.5) return { reward: library, ...out, judge_evaluations: null };
      const [reward, evaluations] = await judgeEquality(state.judge, body.question as string, expected, verdict.extracted_answer || text);
      return { reward, ...out, judge_evaluations: evaluations };
    },
  },
  computeMetrics: (tasks) =>
    computePassMajorityMetrics(tasks, { scoreFn: mathScoreFn, answerKey: "extracted_answer" }).metrics,
  keyMetrics: (agentMetrics) => passMajorityKeyMetrics(agentMetrics) as JsonObject,
});

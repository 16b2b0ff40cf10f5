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

export interface MathWithJudgeState {
  pool: VerifierPool;
  judge: Judge;
}

/** The state math_with_judge and its subclasses start from: the math-verify pool and the judge. */
export function openMathWithJudgeState(config: MathWithJudgeConfig, servers: ConstructorParameters<typeof Judge>[1]): MathWithJudgeState {
  return {
    pool: new VerifierPool(config.library_verifier_timeout_seconds, config.library_verifier_max_concurrency),
    judge: new Judge(config as never, servers),
  };
}

/** The symbolic pass every math_with_judge server makes first: math-verify on the joined output text, and the
 * response fields it fills (`expected_answer`, `extracted_answer`, `library_reward`). */
export async function verifySymbolically(pool: VerifierPool, body: JsonObject) {
  const text = outputText(body.response as JsonObject);
  const expected = body.expected_answer as string;
  const verdict = await pool.verify(expected, text);
  const library = verdict.reward;
  return { text, expected, verdict, library, out: { expected_answer: expected, extracted_answer: verdict.extracted_answer, library_reward: library } };
}

export default defineResourcesServer<MathWithJudgeConfig, MathWithJudgeState>({
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
  createState: (config, { servers }) => openMathWithJudgeState(config, servers),
  verify: {
    request: { fields: { question: py.str(), expected_answer: py.str() } },
    response: ["expected_answer", "extracted_answer", "library_reward", "judge_evaluations"],
    async handler(body, { config, state }) {
      const { text, expected, verdict, library, out } = await verifySymbolically(state.pool, body);
      if (!config.should_use_judge || library > 0.5) return { reward: library, ...out, judge_evaluations: null };
      const [reward, evaluations] = await judgeEquality(state.judge, body.question as string, expected, verdict.extracted_answer || text);
      return { reward, ...out, judge_evaluations: evaluations };
    },
  },
  computeMetrics: (tasks) =>
    computePassMajorityMetrics(tasks, { scoreFn: mathScoreFn, answerKey: "extracted_answer" }).metrics,
  keyMetrics: (agentMetrics) => passMajorityKeyMetrics(agentMetrics) as JsonObject,
});

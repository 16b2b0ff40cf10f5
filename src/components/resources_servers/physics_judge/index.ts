/**
 * physics_judge: math_with_judge with NeMo Skills' physics judge. math-verify first; on a symbolic miss the whole
 * output text (`{generation}`) is graded once with the prompt YAML at `judge_prompt_path` (`{problem}`,
 * `{generation}`, `{expected_answer}`); a `[Correct]` anywhere (case-insensitive) scores 1. Metrics: math_with_judge's,
 * plus the same per `domain` when any row carries one.
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { computePassMajorityMetrics, computeSubsetMetrics } from "../../../metrics/pass-k.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { outputText } from "../_common/output.ts";
import { VerifierPool } from "../_math_verify/pool.ts";
import { Judge } from "../_judge/index.ts";
import mathWithJudge, { mathScoreFn, type MathWithJudgeConfig } from "../math_with_judge/index.ts";
import { askSingleJudge, JudgePrompt, type SingleJudgeConfig } from "../math_with_judge/single-judge.ts";

type Config = MathWithJudgeConfig & SingleJudgeConfig;

/** Skills' `PhysicsMetrics.is_correct_judgement`: `[correct]` in any case decides; everything else is incorrect. */
export function saysCorrect(text: string | null): boolean {
  return text !== null && /\[correct\]/i.test(text);
}

const parent = mathWithJudge.definition;

export default defineResourcesServer<Config, { pool: VerifierPool; judge: Judge; prompt: JudgePrompt }>({
  ...parent,
  // NeMo Gym's math_with_judge declares no REVERIFY_MODE (the base's UNKNOWN), nor does this subclass.
  reverifyMode: "unknown",
  name: "physics_judge",
  className: "PhysicsJudgeResourcesServer",
  config: {
    fields: {
      ...parent.config!.fields,
      use_chat_completions_for_judge: py.withDefault(py.bool(), () => false),
      judge_prompt_path: py.withDefault(py.str(), () => "resources_servers/physics_judge/prompts/judge.yaml"),
    },
  },
  createState: (config, { servers }) => ({
    pool: new VerifierPool(config.library_verifier_timeout_seconds, config.library_verifier_max_concurrency),
    judge: new Judge(config as never, servers),
    prompt: new JudgePrompt("physics_judge"),
  }),
  verify: {
    ...parent.verify!,
    async handler(body, { config, state }) {
      const text = outputText(body.response as JsonObject);
      const expected = body.expected_answer as string;
      const verdict = await state.pool.verify(expected, text);
      const library = verdict.reward;
      const out = { expected_answer: expected, extracted_answer: verdict.extracted_answer, library_reward: library };
      if (!config.should_use_judge || library > 0.5) return { reward: library, ...out, judge_evaluations: null };
      const messages = await state.prompt.messages(config, { problem: body.question as string, generation: text, expected_answer: expected });
      const answer = await askSingleJudge(state.judge, config, messages);
      return { reward: saysCorrect(answer.text) ? 1.0 : 0.0, ...out, judge_evaluations: [answer.exchange] };
    },
  },
  computeMetrics(tasks) {
    const metrics = computePassMajorityMetrics(tasks, { scoreFn: mathScoreFn, answerKey: "extracted_answer" }).metrics;
    if (tasks.some((rollouts) => rollouts.some((r) => "domain" in r))) Object.assign(metrics, computeSubsetMetrics(tasks, "domain", { scoreFn: mathScoreFn, answerKey: "extracted_answer" }));
    return metrics;
  },
});

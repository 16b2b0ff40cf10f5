/**
 * physics_judge: math_with_judge with NeMo Skills' physics judge. math-verify first; on a symbolic miss the whole
 * output text (`{generation}`) is graded once with the prompt YAML at `judge_prompt_path` (`{problem}`,
 * `{generation}`, `{expected_answer}`); a `[Correct]` anywhere (case-insensitive) scores 1. Metrics: math_with_judge's,
 * plus the same per `domain` when any row carries one.
 */
import { computePassMajorityMetrics, computeSubsetMetrics } from "../../../metrics/pass-k.ts";
import { defineResourcesServer } from "../../../servers/resources/index.ts";
import mathWithJudge, { mathScoreFn, type MathWithJudgeConfig, type MathWithJudgeState, openMathWithJudgeState, verifySymbolically } from "../math_with_judge/index.ts";
import { askSingleJudge, JudgePrompt, type SingleJudgeConfig, singleJudgeFields } from "../math_with_judge/single-judge.ts";

type Config = MathWithJudgeConfig & SingleJudgeConfig;

/** Skills' `PhysicsMetrics.is_correct_judgement`: `[correct]` in any case decides; everything else is incorrect. */
export function saysCorrect(text: string | null): boolean {
  return text !== null && /\[correct\]/i.test(text);
}

const parent = mathWithJudge.definition;

export default defineResourcesServer<Config, MathWithJudgeState & { prompt: JudgePrompt }>({
  ...parent,
  // NeMo Gym's math_with_judge declares no REVERIFY_MODE (the base's UNKNOWN), nor does this subclass.
  reverifyMode: "unknown",
  name: "physics_judge",
  className: "PhysicsJudgeResourcesServer",
  config: {
    fields: {
      ...parent.config!.fields,
      ...singleJudgeFields("physics_judge"),
    },
  },
  createState: (config, { servers }) => ({ ...openMathWithJudgeState(config, servers), prompt: new JudgePrompt("physics_judge") }),
  verify: {
    ...parent.verify!,
    async handler(body, { config, state }) {
      const { text, expected, verdict, library, out } = await verifySymbolically(state.pool, body);
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

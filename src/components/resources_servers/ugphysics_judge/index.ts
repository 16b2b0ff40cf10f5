/**
 * ugphysics_judge: math_with_judge with NeMo Skills' UGPhysics judge. math-verify first (a hit is verdict TRUE; with
 * the judge off a miss is FALSE); on a miss the whole output is graded once with the four-shot prompt at
 * `judge_prompt_path` (`{problem}`, `{solution}`, `{expected_answer}`, `{generation}`), read as
 * `## Equivalence Judgement\nTRUE|FALSE`, else the last standalone TRUE/FALSE. `extracted_verdict` is the
 * majority@k answer; metrics per `subject` too.
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { computePassMajorityMetrics, computeSubsetMetrics, passMajorityKeyMetrics } from "../../../metrics/pass-k.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { pyCompile, pyFinditer } from "../_python/re.ts";
import mathWithJudge, { type MathWithJudgeConfig, type MathWithJudgeState, openMathWithJudgeState, verifySymbolically } from "../math_with_judge/index.ts";
import { askSingleJudge, JudgePrompt, type SingleJudgeConfig, singleJudgeFields } from "../math_with_judge/single-judge.ts";

type Config = MathWithJudgeConfig & SingleJudgeConfig;

const HEADER = pyCompile(String.raw`##\s*Equivalence\s*Judgement\s*\n\s*(TRUE|FALSE)`, { ignoreCase: true });
const TRUE_FALSE = pyCompile(String.raw`\b(TRUE|FALSE)\b`, { ignoreCase: true });

/** `UGPhysicsMetrics.is_correct_judgement`, with null for an unparseable judgement (no text, no TRUE/FALSE). */
export function parseJudgement(text: string | null): boolean | null {
  if (!text) return null;
  const header = HEADER.search.exec(text);
  if (header) return header[1]!.toUpperCase() === "TRUE";
  let last: RegExpExecArray | undefined;
  for (const m of pyFinditer(TRUE_FALSE, text)) last = m;
  return last ? last[1]!.toUpperCase() === "TRUE" : null;
}

const scoreFn = (r: JsonObject) => ({ symbolic_accuracy: Number(r.library_reward ?? 0.0), judge_accuracy: Number(r.reward ?? 0.0) });
const parent = mathWithJudge.definition;

export default defineResourcesServer<Config, MathWithJudgeState & { prompt: JudgePrompt }>({
  ...parent,
  // NeMo Gym's math_with_judge declares no REVERIFY_MODE (the base's UNKNOWN), nor does this subclass.
  reverifyMode: "unknown",
  name: "ugphysics_judge",
  className: "UGPhysicsJudgeResourcesServer",
  config: {
    fields: {
      ...parent.config!.fields,
      ...singleJudgeFields("ugphysics_judge"),
    },
  },
  createState: (config, { servers }) => ({ ...openMathWithJudgeState(config, servers), prompt: new JudgePrompt("ugphysics_judge") }),
  verify: {
    request: { fields: { question: py.str(), expected_answer: py.str(), solution: py.withDefault(py.str(), () => ""), subject: py.optional(py.str()) }, extra: "allow" },
    response: ["expected_answer", "extracted_answer", "library_reward", "judge_evaluations", "extracted_verdict", "subject"],
    echoExtra: true,
    async handler(body, { config, state }) {
      const { text, expected, verdict, library, out } = await verifySymbolically(state.pool, body);
      if (library > 0.5) return { reward: library, ...out, judge_evaluations: null, extracted_verdict: "TRUE" };
      if (!config.should_use_judge) return { reward: library, ...out, judge_evaluations: null, extracted_verdict: "FALSE" };
      const messages = await state.prompt.messages(config, { problem: body.question as string, solution: body.solution as string, expected_answer: expected, generation: text });
      const answer = await askSingleJudge(state.judge, config, messages);
      const judged = parseJudgement(answer.text);
      return { reward: judged === true ? 1.0 : 0.0, ...out, judge_evaluations: [answer.exchange], extracted_verdict: judged === null ? null : judged ? "TRUE" : "FALSE" };
    },
  },
  computeMetrics: (tasks) => ({
    ...computePassMajorityMetrics(tasks, { scoreFn, answerKey: "extracted_verdict" }).metrics,
    ...computeSubsetMetrics(tasks, "subject", { scoreFn, answerKey: "extracted_verdict" }),
  }),
  keyMetrics: (agentMetrics) => passMajorityKeyMetrics(agentMetrics) as JsonObject,
});

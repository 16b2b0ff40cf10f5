/**
 * imo_proofbench_judge: IMO-style proofs graded by an LLM judge against a reference solution and a problem-specific
 * rubric (NeMo Skills' imo-proofbench). The rightmost `\boxed{…}` of the answer (thinking stripped) is the submission;
 * none scores 0 with Skills' prefilled "No answer" verdict and no judge call. A submission `math_equal` to the
 * expected answer scores 1 without a judge call; otherwise the judge's reply is read by Skills' three formats in
 * order (`Judgement: Yes/No`, `\boxed{Correct/Incorrect}`, `<points>N out of 7</points>` with N ≥ 6 passing).
 */
import { computePassMajorityMetrics, computeSubsetMetrics, passMajorityKeyMetrics } from "../../../metrics/pass-k.ts";
import { pyFloat } from "../../../metrics/pyjson.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { pyStrip } from "../_python/text.ts";
import { chatText, Judge, judgeConfigFields, type JudgeConfig, lastAssistantText, promptFromYaml, pyFormat, readPromptFile, stripThinking } from "../_judge/index.ts";
import { VerifierPool } from "../_math_verify/pool.ts";

export interface ImoProofBenchJudgeConfig extends JudgeConfig {
  judge_prompt_path: string;
  use_chat_completions_for_judge: boolean;
}

interface State {
  judge: Judge;
  pool: VerifierPool;
  template?: Promise<string>;
}

export const PASS_THRESHOLD = 6;
export const NO_ANSWER = "Reasoning: No answer was provided.\nJudgement: No";
export const IDENTICAL = "Reasoning: The two answers are identical.\nJudgement: Yes";
/** math-verify's parse and verify each stop at 5 s in NeMo Gym; math_equal runs up to two of each. */
const MATH_EQUAL_TIMEOUT_S = 20;

const JUDGEMENT_PREFIX = /\*{0,2}Judgement\*{0,2}\s*:/i;
const BOXED_VERDICT = /\\boxed\s*\{\s*(Correct|Incorrect)\s*\}/i;
const POINTS = /<points>\s*(\d+)\s*out of 7\s*<\/points>/i;

/** The last assistant message with text: its parts' texts joined by newlines, stripped (and thinking stripped). */
export function responseText(response: JsonObject | null | undefined, stripThinkingTraces = true): string {
  const full = response ? lastAssistantText(response) : "";
  return stripThinkingTraces ? stripThinking(full) : full;
}

/** `<points>N out of 7</points>` → N (the first block); null without one. */
export function parsePoints(judgeText: string | null | undefined): number | null {
  if (!judgeText) return null;
  const m = POINTS.exec(judgeText);
  return m ? Number.parseInt(m[1]!, 10) : null;
}

/** Skills' is_correct_judgement: `Judgement: Yes/No`, else `\boxed{Correct/Incorrect}`, else points ≥ 6; null when none applies. */
export function parseJudgementVerdict(judgeText: string | null | undefined): boolean | null {
  if (!judgeText) return null;
  const m = JUDGEMENT_PREFIX.exec(judgeText);
  if (m) {
    const verdict = pyStrip(pyStrip(judgeText.slice(m.index + m[0].length)).replace(/^\*+/, "")).toLowerCase();
    if (verdict.startsWith("yes")) return true;
    if (verdict.startsWith("no")) return false;
  }
  const boxed = BOXED_VERDICT.exec(judgeText);
  if (boxed) return boxed[1]!.toLowerCase() === "correct";
  const points = parsePoints(judgeText);
  return points === null ? null : points >= PASS_THRESHOLD;
}

/** The inside of the rightmost `\boxed{…}` (braces counted from it); null without one or when they never balance. */
export function searchBoxed(text: string | null | undefined): string | null {
  if (!text || !text.includes("\\boxed")) return null;
  const start = text.lastIndexOf("\\boxed");
  let open = 0;
  let end = -1;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "{") open++;
    else if (text[i] === "}" && --open === 0) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const found = text.slice(start, end + 1);
  return found.startsWith("\\boxed{") && found.endsWith("}") ? found.slice("\\boxed{".length, -1) : null;
}

const float = (x: number) => pyFloat(x);
const at = (r: JsonObject, key: string) => (r[key] === null || r[key] === undefined ? 0 : Number(r[key]));

/** The named scores of one rollout (`_score_fn`): any = symbolic or judge, and one flag per points value. */
export function scoreFn(r: JsonObject): Record<string, unknown> {
  const symbolic = at(r, "symbolic_correct") >= 0.5;
  const judge = at(r, "judge_correct") >= 0.5;
  const points = r.judge_points;
  return {
    any_correct: float(symbolic || judge ? 1 : 0),
    symbolic_correct: float(symbolic ? 1 : 0),
    judge_correct: float(judge ? 1 : 0),
    judge_score_7: float(points === 7 ? 1 : 0),
    judge_score_6: float(points === 6 ? 1 : 0),
    judge_score_1: float(points === 1 ? 1 : 0),
    judge_score_0: float(points === 0 ? 1 : 0),
  };
}

async function askJudge(state: State, config: ImoProofBenchJudgeConfig, prompt: string): Promise<string> {
  if (config.use_chat_completions_for_judge) {
    const params = config.judge_responses_create_params;
    // Python's `x or default`: 0 and null both fall back.
    const completion = await state.judge.chatCompletions({
      messages: [{ role: "user", content: prompt }],
      max_tokens: (params.max_output_tokens as number) || 4096,
      temperature: (params.temperature as number) || 0.0,
      top_p: (params.top_p as number) || 1.0,
    });
    return chatText(completion);
  }
  const exchange = await state.judge.responses([{ role: "user", content: prompt }]);
  return responseText(exchange.response);
}

const judged = (reward: number, extracted: string, judgeOutput: string, points: number | null, judge: number, symbolic: number, noScore: number) => ({
  reward,
  extracted_answer: extracted,
  judge_output: judgeOutput,
  judge_points: points,
  judge_correct: float(judge),
  symbolic_correct: float(symbolic),
  any_correct: float(reward),
  no_judge_score: float(noScore),
});

export default defineResourcesServer<ImoProofBenchJudgeConfig, State>({
  name: "imo_proofbench_judge",
  className: "ImoProofBenchJudgeServer",
  config: {
    fields: {
      ...judgeConfigFields({ maxConcurrency: null }),
      judge_prompt_path: py.withDefault(py.str(), () => "prompts/judge.yaml"),
      use_chat_completions_for_judge: py.withDefault(py.bool(), () => false),
    },
  },
  createState: (config, { servers }) => ({ judge: new Judge(config, servers), pool: new VerifierPool(MATH_EQUAL_TIMEOUT_S, 64) }),
  verify: {
    request: {
      fields: Object.fromEntries(["problem_id", "problem", "reference_solution", "rubric", "category", "level", "expected_answer", "source"].map((k) => [k, py.optional(py.str())])),
      extra: "allow",
    },
    response: ["extracted_answer", "judge_output", "judge_points", "judge_correct", "symbolic_correct", "any_correct", "no_judge_score"],
    echoExtra: true,
    async handler(body, { config, state }) {
      const text = responseText(body.response as JsonObject);
      const extracted = text ? searchBoxed(text) : null;
      if (!extracted) return judged(0, "", NO_ANSWER, null, 0, 0, 0);
      // A comparison that runs past the limit is "not equal" (math-verify's own timeouts give the same).
      if ((await state.pool.mathEqual((body.expected_answer as string | null) ?? null, extracted)) === true) return judged(1, extracted, IDENTICAL, null, 1, 1, 0);
      state.template ??= readPromptFile(config.judge_prompt_path, "imo_proofbench_judge", "judge_prompt_path").then((t) => promptFromYaml(t, "user", config.judge_prompt_path));
      const prompt = pyFormat(await state.template, {
        problem: (body.problem as string | null) || "",
        reference_solution: (body.reference_solution as string | null) || "",
        rubric: (body.rubric as string | null) || "",
        predicted_answer: extracted,
      });
      const judgeText = await askJudge(state, config, prompt);
      const verdict = parseJudgementVerdict(judgeText);
      return judged(verdict ? 1 : 0, extracted, judgeText, parsePoints(judgeText), verdict ? 1 : 0, 0, verdict === null ? 1 : 0);
    },
  },
  computeMetrics(tasks) {
    const metrics = computePassMajorityMetrics(tasks, { scoreFn, answerKey: "extracted_answer" }).metrics;
    for (const field of ["category", "level"]) {
      if (!tasks.length || !tasks[0]!.length) break;
      if (!(field in (tasks[0]![0] ?? {}))) continue;
      Object.assign(metrics, computeSubsetMetrics(tasks, field, { scoreFn, answerKey: "extracted_answer" }));
    }
    return metrics;
  },
  keyMetrics: passMajorityKeyMetrics,
});

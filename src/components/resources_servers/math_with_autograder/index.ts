/**
 * math_with_autograder: math_with_judge with a one-way Skills-style autograder judge. math-verify first; on a
 * symbolic miss (library_reward ≤ 0.5, judge enabled) the raw LaTeX of the last balanced `\boxed{…}` (else the
 * extracted answer, else the whole output) is graded once against the golden answer with the prompt YAML at
 * `judge_prompt_path` (`{problem}`, `{predicted_answer}`, `{expected_answer}`); `\boxed{Correct}` before
 * `\boxed{Incorrect}` scores 1. Fields and metrics are math_with_judge's.
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { fillPrompt, promptTemplatesFromYaml, readPromptFile, type JudgeExchange, type PromptTemplates } from "../_judge/index.ts";
import mathWithJudge, { type MathWithJudgeConfig, type MathWithJudgeState, openMathWithJudgeState, verifySymbolically } from "../math_with_judge/index.ts";

interface Config extends MathWithJudgeConfig {
  judge_prompt_path: string;
}

interface State extends MathWithJudgeState {
  templates?: Promise<PromptTemplates>;
}

export const EQUAL_LABEL = String.raw`\boxed{Correct}`;
export const NOT_EQUAL_LABEL = String.raw`\boxed{Incorrect}`;

/** The inside of the last balanced `\boxed{…}` (or, with no `\boxed`, the last `\fbox{…}`), raw; null when there is none. */
export function searchBoxed(text: string): string | null {
  if (!text.includes("\\boxed") && !text.includes("\\fbox")) return null;
  let start = text.lastIndexOf("\\boxed");
  if (start < 0) start = text.lastIndexOf("\\fbox");
  let open = 0;
  let end = -1;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "{") open++;
    else if (text[i] === "}") {
      open--;
      if (open === 0) {
        end = i;
        break;
      }
    }
  }
  if (end < 0) return null;
  const found = text.slice(start, end + 1);
  for (const prefix of ["\\boxed{", "\\fbox{"]) if (found.startsWith(prefix) && found.endsWith("}")) return found.slice(prefix.length, -1);
  return null;
}

/** The verdict: the judge's last item a message whose last part is output_text, the Correct label first (or alone). */
export function autograderSaysCorrect(response: JsonObject): boolean {
  const last = (response.output as JsonObject[] | undefined)?.at(-1);
  if (!last || last.type !== "message") return false;
  const part = (last.content as JsonObject[] | undefined)?.at(-1);
  if (!part || part.type !== "output_text") return false;
  const text = String(part.text);
  const equal = text.indexOf(EQUAL_LABEL);
  const notEqual = text.indexOf(NOT_EQUAL_LABEL);
  if (equal < 0) return false;
  return notEqual < 0 || equal < notEqual;
}

const parent = mathWithJudge.definition;

export default defineResourcesServer<Config, State>({
  ...parent,
  // NeMo Gym's math_with_judge declares no REVERIFY_MODE (the base's UNKNOWN), nor does this subclass.
  reverifyMode: "unknown",
  name: "math_with_autograder",
  className: "MathWithAutograderResourcesServer",
  config: { fields: { ...parent.config!.fields, judge_prompt_path: py.withDefault(py.str(), () => "resources_servers/math_with_autograder/prompts/judge.yaml") } },
  createState: (config, { servers }) => openMathWithJudgeState(config, servers),
  verify: {
    ...parent.verify!,
    async handler(body, { config, state }) {
      const { text, expected, verdict, library, out } = await verifySymbolically(state.pool, body);
      if (!config.should_use_judge || library > 0.5) return { reward: library, ...out, judge_evaluations: null };
      const answer = searchBoxed(text) || verdict.extracted_answer || text;
      state.templates ??= readPromptFile(config.judge_prompt_path, "math_with_autograder", "judge_prompt_path").then((t) => promptTemplatesFromYaml(t, config.judge_prompt_path));
      const messages = fillPrompt(await state.templates, { problem: body.question as string, predicted_answer: answer, expected_answer: expected });
      const exchange: JudgeExchange = await state.judge.responses(messages);
      return { reward: autograderSaysCorrect(exchange.response) ? 1.0 : 0.0, ...out, judge_evaluations: [exchange] };
    },
  },
});

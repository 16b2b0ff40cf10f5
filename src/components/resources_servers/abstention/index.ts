/**
 * abstention: a three-tier reward for answering or abstaining. The last `\boxed{…}` of the answer (else the whole
 * answer, thinking stripped) is compared, SQuAD-normalized, with the abstention token (`[IDK]`: reward
 * `abstention_reward`, no judge call); anything else is graded A/B/C (correct / incorrect / not attempted, which
 * counts as abstaining) by an LLM judge with `judge_prompt_template` (`{question}`, `{target}`, `{predicted_answer}`).
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { pyFloat } from "../../../metrics/pyjson.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { pyCompile } from "../_python/re.ts";
import { pyCollapseSpace, pyStrip } from "../_python/text.ts";
import { Judge, judgeConfigFields, JudgeError, lastAssistantText, pyFormat, readPromptFile, type JudgeConfig } from "../_judge/index.ts";
import { stripThinking } from "../_judge/text.ts";

export interface AbstentionConfig extends JudgeConfig {
  judge_prompt_template: string;
  abstention_reward: number;
  abstention_token: string;
  correct_reward: number;
  incorrect_reward: number;
}

/** app.py's `_DEFAULT_JUDGE_PROMPT_TEMPLATE`, kept verbatim as a data file (prompts/judge.txt). */
const DEFAULT_TEMPLATE = "prompts/judge.txt";

/** The content of the last `\boxed{…}`, nested braces balanced; null when there is none or it never closes. */
export function extractBoxedAnswer(text: string): string | null {
  const at = text.lastIndexOf("\\boxed{");
  if (at < 0) return null;
  const start = at + "\\boxed{".length;
  let depth = 1;
  let i = start;
  for (; i < text.length && depth > 0; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}") depth--;
  }
  return depth === 0 ? text.slice(start, i - 1) : null;
}

const ARTICLES = pyCompile(String.raw`\b(a|an|the)\b`);
const PUNCTUATION = pyCompile(String.raw`[^\w\s]`);

/** SQuAD-style normalization: lower-cased, articles and punctuation removed, whitespace collapsed. */
export function normalizeAnswer(s: string): string {
  const lowered = pyStrip(s.toLowerCase());
  return pyCollapseSpace(lowered.replace(ARTICLES.global, " ").replace(PUNCTUATION.global, ""));
}

/** The grade letter: the whole text, else the last line, else the first of A, B, C found anywhere; "B" when none. */
export function parseJudgeGrade(judgeText: string): string {
  const cleaned = pyStrip(judgeText);
  if (["A", "B", "C"].includes(cleaned)) return cleaned;
  const lastLine = pyStrip(cleaned.slice(cleaned.lastIndexOf("\n") + 1));
  if (["A", "B", "C"].includes(lastLine)) return lastLine;
  for (const letter of ["A", "B", "C"]) if (cleaned.includes(letter)) return letter;
  return "B";
}

const answerText = (response: JsonObject) => stripThinking(lastAssistantText(response));

export default defineResourcesServer<AbstentionConfig, { judge: Judge; template?: Promise<string> }>({
  name: "abstention",
  className: "AbstentionServer",
  config: {
    fields: {
      ...judgeConfigFields({ maxConcurrency: null }),
      judge_prompt_template: py.optional(py.str()),
      abstention_reward: py.withDefault(py.float(), () => 0.5),
      abstention_token: py.withDefault(py.str(), () => "[IDK]"),
      correct_reward: py.withDefault(py.float(), () => 1.0),
      incorrect_reward: py.withDefault(py.float(), () => 0.0),
    },
  },
  createState: (config, { servers }) => ({ judge: new Judge(config, servers) }),
  verify: {
    request: { fields: { id: py.optional(py.any()), question: py.optional(py.str()), answer: py.optional(py.str()) }, extra: "allow" },
    response: ["extracted_answer", "ground_truth", "verdict", "judge_output", "is_correct", "is_abstain", "is_incorrect", "omniscience_index"],
    echoExtra: true,
    async handler(body, { config, state }) {
      const output = answerText(body.response as JsonObject);
      const extracted = extractBoxedAnswer(output) ?? output;
      const groundTruth = (body.answer as string | null) || "";
      let verdict: string;
      let reward: number;
      let judgeText: string | null = null;
      if (normalizeAnswer(extracted) === normalizeAnswer(config.abstention_token)) {
        verdict = "abstain";
        reward = config.abstention_reward;
      } else {
        state.template ??= config.judge_prompt_template === null ? readPromptFile(DEFAULT_TEMPLATE, "abstention", "judge_prompt_template") : Promise.resolve(config.judge_prompt_template);
        const prompt = pyFormat(await state.template, { question: (body.question as string | null) || "", target: groundTruth, predicted_answer: extracted });
        judgeText = answerText((await state.judge.responses([{ role: "user", content: prompt }])).response);
        if (!judgeText) throw new JudgeError("empty judge response");
        const grade = parseJudgeGrade(judgeText);
        [verdict, reward] = grade === "A" ? ["correct", config.correct_reward] : grade === "C" ? ["abstain", config.abstention_reward] : ["incorrect", config.incorrect_reward];
      }
      const flag = (v: string) => pyFloat(verdict === v ? 1.0 : 0.0);
      return {
        reward,
        extracted_answer: extracted,
        ground_truth: groundTruth,
        verdict,
        judge_output: judgeText,
        is_correct: flag("correct"),
        is_abstain: flag("abstain"),
        is_incorrect: flag("incorrect"),
        omniscience_index: pyFloat((verdict === "correct" ? 1 : 0) - (verdict === "incorrect" ? 1 : 0)),
      };
    },
  },
});

/** equivalence_llm_judge: an LLM judge compares the answer with `expected_answer` (labels, per-record regex, the 120-character rule, swap check, 0.5 partial credit). */
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { pyLen, pyStrip } from "../_python/text.ts";
import { Judge, judgeConfigFields, lastOutputText, pyFormat, readPromptFile, type JudgeConfig } from "../_judge/index.ts";
import { expectedAnswer, lastAssistantAnswer, questionText } from "./extract.ts";

export interface LLMJudgeConfig extends JudgeConfig {
  judge_system_message: string | null;
  judge_prompt_template_fpath: string;
  judge_equal_label: string;
  judge_not_equal_label: string;
  question_extract_regex: string | null;
  response_extract_regex: string | null;
  msg_extraction_failure: string;
  check_twice_swap: boolean;
  reward_if_swap_fails: number;
  use_per_record_regex: boolean;
  extraction_length_threshold: number | null;
  check_full_generation_on_fail: boolean;
  reward_if_full_generation_succeeds: number;
}

interface State {
  judge: Judge;
  template?: Promise<string>;
}

const str = (fallback: string) => py.withDefault(py.str(), () => fallback);
const bool = (fallback: boolean) => py.withDefault(py.bool(), () => fallback);

/** The row's `template_metadata.output_regex`, when the row carries one (truthy). */
function recordRegex(body: JsonObject): unknown {
  const md = body.template_metadata;
  return md !== null && typeof md === "object" && !Array.isArray(md) ? (md as JsonObject).output_regex || undefined : undefined;
}

/** A long expected answer with a per-record regex: the full generation was judged, so no second pass. */
function skipForLength(config: LLMJudgeConfig, body: JsonObject, expected: string): boolean {
  if (!config.use_per_record_regex || config.extraction_length_threshold === null) return false;
  return pyLen(expected) > config.extraction_length_threshold && recordRegex(body) !== undefined;
}

/** The regex for the answer: the config's, a per-record override, or none (a long expected answer). */
function extractionRegex(config: LLMJudgeConfig, body: JsonObject, expected: string): string | null {
  let regex = config.response_extract_regex;
  const override = config.use_per_record_regex ? recordRegex(body) : undefined;
  if (override !== undefined) {
    regex = override as string;
    if (config.extraction_length_threshold !== null && pyLen(expected) > config.extraction_length_threshold) regex = null;
  }
  return regex;
}

/** One judge pass: the prompt filled, the verdict label found first in the judge's last output text. */
async function evaluate(state: State, config: LLMJudgeConfig, question: string, expected: string, generated: string): Promise<[boolean, JsonObject]> {
  state.template ??= readPromptFile(config.judge_prompt_template_fpath, "equivalence_llm_judge", "judge_prompt_template_fpath").then((t) => pyStrip(t));
  const prompt = pyFormat(await state.template, { question, expected_answer: expected, generated_answer: generated });
  const input: JsonObject[] = [];
  if (config.judge_system_message) input.push({ role: "system", content: config.judge_system_message });
  input.push({ role: "user", content: prompt });
  const exchange = await state.judge.responses(input);
  const record: JsonObject = { ...exchange, verdict_label: null };
  const text = lastOutputText(exchange.response);
  if (text === undefined) return [false, record];
  const eq = text.indexOf(config.judge_equal_label);
  const neq = text.indexOf(config.judge_not_equal_label);
  if (eq < 0 && neq < 0) return [false, record];
  if (eq >= 0 && (neq < 0 || eq < neq)) return [true, { ...record, verdict_label: config.judge_equal_label }];
  return [false, { ...record, verdict_label: config.judge_not_equal_label }];
}

export default defineResourcesServer<LLMJudgeConfig, State>({
  name: "equivalence_llm_judge",
  className: "LLMJudgeResourcesServer",
  config: {
    fields: {
      ...judgeConfigFields({ maxConcurrency: 64 }),
      judge_system_message: py.optional(py.str()),
      judge_prompt_template_fpath: str("prompt_templates/equivalence_llm_judge.txt"),
      judge_equal_label: str("[[A=B]]"),
      judge_not_equal_label: str("[[A!=B]]"),
      question_extract_regex: py.optional(py.str()),
      response_extract_regex: py.optional(py.str()),
      msg_extraction_failure: str("[NO VALID ANSWER EXTRACTED]"),
      check_twice_swap: bool(false),
      reward_if_swap_fails: py.withDefault(py.float(), () => 0.0),
      use_per_record_regex: bool(true),
      extraction_length_threshold: py.optional(py.int(), () => 120),
      check_full_generation_on_fail: bool(true),
      reward_if_full_generation_succeeds: py.withDefault(py.float(), () => 0.5),
    },
  },
  createState: (config, { servers }) => ({ judge: new Judge(config, servers) }),
  verify: {
    request: {
      fields: { uuid: py.optional(py.any()), expected_answer: py.optional(py.str()), options: py.optional(py.list(py.dict())), metadata: py.optional(py.dict()) },
      extra: "allow",
    },
    response: ["expected_answer", "judge_evaluations"],
    async handler(body, { config, state }) {
      const expected = expectedAnswer(body) || "";
      const question = questionText(body.responses_create_params as JsonObject, config.question_extract_regex);
      const response = body.response as JsonObject;
      const generated = lastAssistantAnswer(response, extractionRegex(config, body, expected), config.msg_extraction_failure);
      const [firstEqual, first] = await evaluate(state, config, question, expected, generated);
      const result = (reward: number, judge_evaluations: JsonObject[]) => ({ reward, expected_answer: expected, judge_evaluations });
      if (!firstEqual) {
        if (skipForLength(config, body, expected)) return result(0.0, [first]);
        if (config.check_full_generation_on_fail && config.use_per_record_regex && recordRegex(body) !== undefined) {
          const full = lastAssistantAnswer(response, null, config.msg_extraction_failure);
          const [secondEqual, second] = await evaluate(state, config, question, expected, full);
          return result(secondEqual ? config.reward_if_full_generation_succeeds : 0.0, [first, second]);
        }
        return result(0.0, [first]);
      }
      if (!config.check_twice_swap || skipForLength(config, body, expected)) return result(1.0, [first]);
      // The swap pass: the generated answer as the reference, the expected one as the candidate.
      const [secondEqual, second] = await evaluate(state, config, question, generated, expected);
      return result(secondEqual ? 1.0 : config.reward_if_swap_fails, [first, second]);
    },
  },
});

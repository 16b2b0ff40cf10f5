/** simpleqa: short-form factual QA graded A/B/C (correct / incorrect / not attempted) by an LLM judge; F1 and accuracy-given-attempted in its metrics. */
import { computePassMajorityMetrics, highestKMetrics } from "../../../metrics/pass-k.ts";
import { pyFloat } from "../../../metrics/pyjson.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { pyStrip } from "../_python/text.ts";
import { chatText, Judge, judgeConfigFields, JudgeError, lastAssistantText, promptFromYaml, pyFormat, readPromptFile, type JudgeConfig } from "../_judge/index.ts";
import { meanTokenMetrics } from "../_common/key-metrics.ts";

export interface SimpleQAConfig extends JudgeConfig {
  /** A YAML file whose `user:` entry is the judge prompt ({question}, {expected_answer}, {generation}). */
  judge_prompt_path: string;
}

interface State {
  judge: Judge;
  template?: Promise<string>;
}

const GRADES = ["A", "B", "C"];

/** The judge's grade letter: the first character, else the last line's, else the first of A, B, C found anywhere; "C" when none. */
export function parseJudgeGrade(judgeText: string): string {
  const cleaned = pyStrip(judgeText);
  if (GRADES.includes(cleaned.slice(0, 1))) return cleaned.slice(0, 1);
  const lastLine = pyStrip(cleaned.slice(cleaned.lastIndexOf("\n") + 1));
  if (GRADES.includes(lastLine.slice(0, 1))) return lastLine.slice(0, 1);
  for (const letter of GRADES) if (cleaned.includes(letter)) return letter;
  return "C";
}

const VERDICTS: Record<string, string> = { A: "correct", B: "incorrect", C: "not_attempted" };

/** The `user:` prompt of the YAML at `judge_prompt_path`, read once per server (omniscience reads its own the same way). */
export async function template(state: State, config: SimpleQAConfig, server = "simpleqa"): Promise<string> {
  state.template ??= readPromptFile(config.judge_prompt_path, server, "judge_prompt_path").then((text) => promptFromYaml(text, "user", config.judge_prompt_path));
  return state.template;
}

/** One judge call, Chat Completions or Responses as the config says; returns the judge's text (a Responses answer's
 * through `responseText`, which omniscience uses to strip thinking). */
export async function askJudge(judge: Judge, config: SimpleQAConfig, prompt: string, responseText: (response: JsonObject) => string = lastAssistantText): Promise<string> {
  if (config.use_chat_completions_for_judge) {
    const params = config.judge_responses_create_params;
    // Python's `x or default`: 0 and null both fall back.
    const completion = await judge.chatCompletions({
      messages: [{ role: "user", content: prompt }],
      max_tokens: (params.max_output_tokens as number) || 64,
      temperature: (params.temperature as number) || 0.0,
      top_p: (params.top_p as number) || 1.0,
    });
    return chatText(completion);
  }
  const exchange = await judge.responses([{ role: "user", content: prompt }]);
  return responseText(exchange.response);
}

/** F1 and accuracy_given_attempted beside every `<agg>/correct` that has an `<agg>/incorrect`. */
export function addF1(metrics: JsonObject): JsonObject {
  for (const key of Object.keys(metrics)) {
    if (!key.includes("/correct")) continue;
    const agg = key.slice(0, key.lastIndexOf("/correct"));
    const incorrectKey = `${agg}/incorrect`;
    if (!(incorrectKey in metrics)) continue;
    const correct = Number(metrics[`${agg}/correct`]) / 100.0;
    const incorrect = Number(metrics[incorrectKey]) / 100.0;
    const attempted = correct + incorrect;
    const accuracyGivenAttempted = attempted > 0 ? correct / attempted : 0.0;
    const denom = accuracyGivenAttempted + correct;
    const f1 = denom > 0 ? (2 * accuracyGivenAttempted * correct) / denom : 0.0;
    metrics[`${agg}/f1`] = pyFloat(100.0 * f1);
    metrics[`${agg}/accuracy_given_attempted`] = pyFloat(100.0 * accuracyGivenAttempted);
  }
  return metrics;
}

export default defineResourcesServer<SimpleQAConfig, State>({
  name: "simpleqa",
  className: "SimpleQAServer",
  config: { fields: { ...judgeConfigFields({ maxConcurrency: null }), judge_prompt_path: py.withDefault(py.str(), () => "prompts/judge.yaml") } },
  createState: (config, { servers }) => ({ judge: new Judge(config, servers) }),
  verify: {
    request: { fields: { id: py.optional(py.any()), question: py.optional(py.str()), expected_answer: py.optional(py.str()) }, extra: "allow" },
    response: ["extracted_answer", "expected_answer", "verdict", "judge_output", "is_correct", "is_incorrect", "is_not_attempted"],
    echoExtra: true,
    async handler(body, { config, state }) {
      const generation = lastAssistantText(body.response as JsonObject);
      const expected = (body.expected_answer as string | null) || "";
      const prompt = pyFormat(await template(state, config), { question: (body.question as string | null) || "", expected_answer: expected, generation });
      const judgeText = await askJudge(state.judge, config, prompt);
      // An empty judge text is a judge failure (sidecar, re-judged by --judge-failed-only), not a wrong answer.
      if (!judgeText) throw new JudgeError("empty judge response");
      const verdict = VERDICTS[parseJudgeGrade(judgeText)]!;
      // Python floats (1.0) in NeMo Gym; plain numbers here, as the collector writes every extra field of a
      // run's rows, so that a run's rows and reverify's recovered rows are typed alike (README: known differences).
      const flag = (v: string) => (verdict === v ? 1 : 0);
      return {
        reward: verdict === "correct" ? 1.0 : 0.0,
        extracted_answer: generation,
        expected_answer: expected,
        verdict,
        judge_output: judgeText,
        is_correct: flag("correct"),
        is_incorrect: flag("incorrect"),
        is_not_attempted: flag("not_attempted"),
      };
    },
  },
  computeMetrics(tasks) {
    const scoreFn = (r: JsonObject) => {
      const verdict = "verdict" in r ? r.verdict : "not_attempted";
      const score = (v: string) => pyFloat(verdict === v ? 1 : 0);
      return { correct: score("correct"), incorrect: score("incorrect"), not_attempted: score("not_attempted") };
    };
    return addF1(computePassMajorityMetrics(tasks, { scoreFn, answerKey: "extracted_answer" }).metrics);
  },
  keyMetrics(agentMetrics) {
    const key = meanTokenMetrics(agentMetrics);
    Object.assign(key, highestKMetrics(agentMetrics, "pass@1[avg-of-{k}]"));
    Object.assign(key, highestKMetrics(agentMetrics, "pass@{k}", undefined, ["no_answer"]));
    return key;
  },
});

/**
 * omniscience: AA-Omniscience factual QA graded A/B/C/D (correct / incorrect / partial / not attempted) by an LLM
 * judge; reward 1 on A. Its metrics add the omniscience index (correct − incorrect) and the hallucination rate
 * (incorrect among the non-correct) at every aggregation level.
 */
import { computePassMajorityMetrics, highestKMetrics } from "../../../metrics/pass-k.ts";
import { pyFloat } from "../../../metrics/pyjson.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { pyStrip } from "../_python/text.ts";
import { Judge, judgeConfigFields, JudgeError, lastAssistantText, pyFormat, type JudgeConfig } from "../_judge/index.ts";
import { stripThinking } from "../_judge/text.ts";
import { askJudge as askSimpleQAJudge, template } from "../simpleqa/index.ts";
import { meanTokenMetrics } from "../_common/key-metrics.ts";

export interface OmniscienceConfig extends JudgeConfig {
  judge_prompt_path: string;
}

interface State {
  judge: Judge;
  template?: Promise<string>;
}

const LETTERS = ["A", "B", "C", "D"];

/** The grade letter: the whole text, else the last line, else the first of A, B, C, D found anywhere; "B" (incorrect) when none. */
export function parseJudgeGrade(judgeText: string): string {
  const cleaned = pyStrip(judgeText);
  if (LETTERS.includes(cleaned)) return cleaned;
  const lastLine = pyStrip(cleaned.slice(cleaned.lastIndexOf("\n") + 1));
  if (LETTERS.includes(lastLine)) return lastLine;
  for (const letter of LETTERS) if (cleaned.includes(letter)) return letter;
  return "B";
}

const VERDICTS: Record<string, string> = { A: "correct", B: "incorrect", C: "partial", D: "not_attempted" };

/** simpleqa's judge call, the Responses answer's thinking stripped. */
const askJudge = (judge: Judge, config: OmniscienceConfig, prompt: string) => askSimpleQAJudge(judge, config, prompt, (response) => stripThinking(lastAssistantText(response)));

/** The judged answer: thinking stripped; an opened but never closed thinking block leaves none. */
export function generationOf(response: JsonObject): string {
  const raw = lastAssistantText(response);
  const opened = raw.includes("<think>") || raw.includes("<thinking>");
  const closed = raw.includes("</think>") || raw.includes("</thinking>");
  return opened && !closed ? "" : stripThinking(raw);
}

/** `judge_omni_index` and `judge_omni_hallucination` beside every `<agg>/judge_correct`. */
export function addOmniMetrics(metrics: JsonObject): JsonObject {
  const get = (key: string) => (key in metrics ? Number(metrics[key]) : 0);
  for (const key of Object.keys(metrics)) {
    const at = key.lastIndexOf("/judge_correct");
    if (at < 0) continue;
    const agg = key.slice(0, at);
    const correct = get(`${agg}/judge_correct`);
    const incorrect = -get(`${agg}/judge_incorrect`);
    const nonCorrect = incorrect + get(`${agg}/judge_partially_correct`) + get(`${agg}/judge_abstained`);
    metrics[`${agg}/judge_omni_index`] = pyFloat(correct - incorrect);
    metrics[`${agg}/judge_omni_hallucination`] = nonCorrect > 0 ? pyFloat((100 * incorrect) / nonCorrect) : 0;
  }
  return metrics;
}

const scoreFn = (r: JsonObject) => {
  const verdict = "verdict" in r ? r.verdict : "incorrect";
  return {
    judge_correct: pyFloat(verdict === "correct" ? 1.0 : 0.0),
    judge_incorrect: pyFloat(verdict === "incorrect" ? -1.0 : 0.0),
    judge_partially_correct: pyFloat(verdict === "partial" ? 1.0 : 0.0),
    judge_abstained: pyFloat(verdict === "not_attempted" ? 1.0 : 0.0),
  };
};

export default defineResourcesServer<OmniscienceConfig, State>({
  name: "omniscience",
  className: "OmniscienceServer",
  config: { fields: { ...judgeConfigFields({ maxConcurrency: null }), judge_prompt_path: py.withDefault(py.str(), () => "prompts/judge.yaml") } },
  createState: (config, { servers }) => ({ judge: new Judge(config, servers) }),
  verify: {
    request: {
      fields: { id: py.optional(py.any()), domain: py.optional(py.str()), topic: py.optional(py.str()), question: py.optional(py.str()), expected_answer: py.optional(py.str()) },
      extra: "allow",
    },
    response: ["extracted_answer", "expected_answer", "verdict", "judge_output", "is_correct", "is_incorrect", "is_partial", "is_not_attempted", "omniscience_index", "is_hallucination"],
    echoExtra: true,
    async handler(body, { config, state }) {
      const generation = generationOf(body.response as JsonObject);
      const expected = (body.expected_answer as string | null) || "";
      const prompt = pyFormat(await template(state, config, "omniscience"), { question: (body.question as string | null) || "", expected_answer: expected, generation });
      const judgeText = await askJudge(state.judge, config, prompt);
      if (!judgeText) throw new JudgeError("empty judge response");
      const verdict = VERDICTS[parseJudgeGrade(judgeText)]!;
      const flag = (v: string) => pyFloat(verdict === v ? 1.0 : 0.0);
      return {
        reward: verdict === "correct" ? 1.0 : 0.0,
        extracted_answer: generation,
        expected_answer: expected,
        verdict,
        judge_output: judgeText,
        is_correct: flag("correct"),
        is_incorrect: flag("incorrect"),
        is_partial: flag("partial"),
        is_not_attempted: flag("not_attempted"),
        omniscience_index: pyFloat((verdict === "correct" ? 1 : 0) - (verdict === "incorrect" ? 1 : 0)),
        is_hallucination: flag("incorrect"),
      };
    },
  },
  computeMetrics: (tasks) => addOmniMetrics(computePassMajorityMetrics(tasks, { scoreFn, answerKey: "extracted_answer" }).metrics),
  keyMetrics(agentMetrics) {
    const key = meanTokenMetrics(agentMetrics);
    Object.assign(key, highestKMetrics(agentMetrics, "pass@1[avg-of-{k}]"));
    Object.assign(key, highestKMetrics(agentMetrics, "pass@{k}", undefined, ["no_answer"]));
    return key;
  },
});

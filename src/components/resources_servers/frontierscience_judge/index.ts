/** frontierscience_judge: one LLM-judge pass per answer — `Judgement: YES/NO` (olympiad) or a 10-point rubric score (research); pass@k per subject in its metrics. */
import { computePassMajorityMetrics, computeSubsetMetrics, passMajorityKeyMetrics } from "../../../metrics/pass-k.ts";
import { pyFloat } from "../../../metrics/pyjson.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { pyCompile, pyFinditer } from "../_python/re.ts";
import { pySplitlines, pyStrip } from "../_python/text.ts";
import { chatText, Judge, judgeConfigFields, lastAssistantText, stripThinking, promptFromYaml, pyFormat, readPromptFile, type JudgeConfig } from "../_judge/index.ts";

export interface FrontierScienceConfig extends JudgeConfig {
  judge_mode: "olympiad" | "research";
  rubric_pass_score_threshold: number;
  rubric_max_score: number;
  judge_prompt_path: string;
}

interface State {
  judge: Judge;
  template?: Promise<string>;
}

const JUDGEMENT = pyCompile(String.raw`Judgement:\s*(YES|NO)`, { ignoreCase: true });
const NUM = String.raw`([+-]?(?:\d+(?:\.\d+)?|\.\d+))`;
const BRACKETED = pyCompile(String.raw`(?:final[_\s-]*)?score\s*\[\s*${NUM}\s*\]\s*/\s*(?:max[_\s-]*possible[_\s-]*)?score\s*\[\s*${NUM}\s*\]`, { ignoreCase: true });
const DENOMINATED = pyCompile(String.raw`${NUM}\s*(?:/|out\s+of)\s*${NUM}`, { ignoreCase: true });
const LABELED = pyCompile(String.raw`(?:final\s+)?score\s*[:=]\s*${NUM}`, { ignoreCase: true });

/** The last assistant message with text, parts joined by "\n", stripped (and thinking removed). */
function answerText(response: JsonObject, strip: boolean): string {
  const full = lastAssistantText(response);
  return strip ? stripThinking(full) : full;
}

/** The last `Judgement: YES|NO`, upper-cased; null when there is none. */
export function parseJudgement(text: string): string | null {
  if (!text) return null;
  let last: RegExpExecArray | undefined;
  for (const m of pyFinditer(JUDGEMENT, text)) last = m;
  return last ? last[1]!.toUpperCase() : null;
}

/** The last score-like line's score on `maxScore` points (`7/10`, `7 out of 10`, `FINAL_SCORE[7] / MAX_POSSIBLE_SCORE[10]`, `Score: 7`). */
export function parseRubricScore(text: string, maxScore = 10.0): number | null {
  if (!text) return null;
  for (const line of pySplitlines(text).reverse()) {
    if (!line.toLowerCase().includes("score")) continue;
    for (const pattern of [BRACKETED, DENOMINATED]) {
      const m = pattern.search.exec(line);
      if (!m) continue;
      const denominator = Number(m[2]);
      if (denominator <= 0) return null;
      return (Number(m[1]) / denominator) * maxScore;
    }
    const m = LABELED.search.exec(line);
    if (m) return Number(m[1]);
  }
  return null;
}

async function askJudge(judge: Judge, config: FrontierScienceConfig, prompt: string): Promise<string> {
  if (config.use_chat_completions_for_judge) {
    const params = config.judge_responses_create_params;
    const body: JsonObject = { messages: [{ role: "user", content: prompt }], max_tokens: (params.max_output_tokens as number) || 2048 };
    if (params.temperature !== undefined && params.temperature !== null) body.temperature = params.temperature;
    else if (config.judge_mode === "olympiad") body.temperature = 0.0;
    if (params.top_p !== undefined && params.top_p !== null) body.top_p = params.top_p;
    else if (config.judge_mode === "olympiad") body.top_p = 1.0;
    return chatText(await judge.chatCompletions(body));
  }
  return answerText((await judge.responses([{ role: "user", content: prompt }])).response, true);
}

const scoreFn = (r: JsonObject) => {
  const scores: JsonObject = { accuracy: pyFloat(Number(r.reward ?? 0.0)) };
  if (r.rubric_score_normalized !== null && r.rubric_score_normalized !== undefined) scores.rubric_score = pyFloat(Number(r.rubric_score_normalized));
  return scores;
};

export default defineResourcesServer<FrontierScienceConfig, State>({
  name: "frontierscience_judge",
  className: "FrontierScienceJudgeServer",
  config: {
    fields: {
      ...judgeConfigFields({ maxConcurrency: null }),
      judge_mode: py.withDefault(py.literal(["olympiad", "research"]), () => "olympiad"),
      rubric_pass_score_threshold: py.withDefault(py.float(), () => 7.0),
      rubric_max_score: py.withDefault(py.float(), () => 10.0),
      judge_prompt_path: py.withDefault(py.str(), () => "prompts/judge.yaml"),
    },
  },
  createState: (config, { servers }) => ({ judge: new Judge(config, servers) }),
  verify: {
    request: {
      fields: { id: py.optional(py.any()), subject: py.optional(py.str()), question: py.optional(py.str()), expected_answer: py.optional(py.str()), rubric: py.optional(py.str()) },
      extra: "allow",
    },
    response: ["extracted_answer", "expected_answer", "verdict", "judge_output", "rubric_score", "rubric_score_normalized", "invalid_judge_response"],
    echoExtra: true,
    async handler(body, { config, state }) {
      const response = body.response as JsonObject;
      const raw = answerText(response, false);
      let generation = answerText(response, true);
      // An unclosed thinking block: the answer never came.
      if ((raw.includes("<think>") || raw.includes("<thinking>")) && !(raw.includes("</think>") || raw.includes("</thinking>"))) generation = "";
      const expected = (body.expected_answer as string | null) || "";
      state.template ??= readPromptFile(config.judge_prompt_path, "frontierscience_judge", "judge_prompt_path").then((t) => promptFromYaml(t, "user", config.judge_prompt_path));
      const prompt = pyFormat(await state.template, { question: (body.question as string | null) || "", expected_answer: expected, rubric: (body.rubric as string | null) || expected, generation });
      const judgeText = await askJudge(state.judge, config, prompt);
      let verdict = parseJudgement(judgeText);
      let rubricScore: number | null = null;
      let normalized: number | null = null;
      let invalid = false;
      let reward: number;
      if (config.judge_mode === "research") {
        rubricScore = parseRubricScore(judgeText, config.rubric_max_score);
        if (rubricScore === null) {
          invalid = true;
          reward = verdict === "YES" ? 1.0 : 0.0;
        } else {
          normalized = Math.max(0.0, Math.min(rubricScore, config.rubric_max_score)) / config.rubric_max_score;
          reward = rubricScore >= config.rubric_pass_score_threshold ? 1.0 : 0.0;
          verdict ??= reward ? "YES" : "NO";
        }
      } else reward = verdict === "YES" ? 1.0 : 0.0;
      return {
        reward,
        extracted_answer: generation || null,
        expected_answer: expected,
        verdict,
        judge_output: judgeText,
        rubric_score: rubricScore === null ? null : pyFloat(rubricScore),
        rubric_score_normalized: normalized === null ? null : pyFloat(normalized),
        invalid_judge_response: invalid,
      };
    },
  },
  computeMetrics(tasks) {
    return {
      ...computePassMajorityMetrics(tasks, { scoreFn, answerKey: "extracted_answer" }).metrics,
      ...computeSubsetMetrics(tasks, "subject", { scoreFn, answerKey: "extracted_answer" }),
    };
  },
  keyMetrics: (agentMetrics) => passMajorityKeyMetrics(agentMetrics) as JsonObject,
});

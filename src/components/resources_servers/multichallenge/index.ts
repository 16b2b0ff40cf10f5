/**
 * multichallenge: MultiChallenge multi-turn conversations (NeMo Gym's `multichallenge`). One LLM-judge call per rubric
 * question (`[[YES]]` / `[[NO]]` on the judge's last line, thinking removed); a question scores 1 when the verdict
 * matches its `pass_criteria`, and the scores are aggregated by the config's `aggregation_mode`.
 */
import { pySum } from "../../../metrics/numeric.ts";
import { pyFloat } from "../../../metrics/pyjson.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { pyRepr } from "../_python/errors.ts";
import { pyStrip } from "../_python/text.ts";
import { Judge, judgeConfigFields, pyFormat, type JudgeConfig } from "../_judge/index.ts";
import { stripThinking } from "../_judge/text.ts";

const MODES = ["mean", "min", "max", "all", "any", "weighted"] as const;

export interface MultiChallengeConfig extends JudgeConfig {
  aggregation_mode: (typeof MODES)[number];
  judge_prompt_template: string;
  judge_system_message: string | null;
  parallel_evaluation: boolean;
  yes_label: string;
  no_label: string;
}

// NeMo Gym's defaults (resources_servers/multichallenge/app.py at 07d6b0d), taken as data; the shipped configs set their own.
const DEFAULT_TEMPLATE = `You are evaluating whether a model's response meets a specific criterion.

CONVERSATION CONTEXT:
{context}

MODEL'S FINAL RESPONSE:
{response}

EVALUATION QUESTION:
{question}

EXPECTED ANSWER: {pass_criteria}

Does the model's response satisfy the criterion described in the evaluation question?
Analyze carefully, then respond with exactly [[YES]] or [[NO]] on the last line.`;
const DEFAULT_SYSTEM = "You are a precise evaluator. Assess responses objectively based on the given criteria.";

const str = (x: unknown) => (typeof x === "string" ? x : pyRepr(x));

/** `_extract_text_from_response`: the last assistant message (its text parts joined by "\n"), thinking removed, stripped. */
export function finalText(response: JsonObject): string {
  const output = (Array.isArray(response?.output) ? response.output : []) as JsonObject[];
  for (let i = output.length - 1; i >= 0; i--) {
    const item = output[i]!;
    if (item?.type !== "message" || item.role !== "assistant") continue;
    let text: string;
    if (Array.isArray(item.content)) text = pyStrip((item.content as JsonObject[]).filter((c) => typeof c?.text === "string").map((c) => c.text as string).join("\n"));
    else if (typeof item.content === "string") text = pyStrip(item.content);
    else continue;
    return stripThinking(text);
  }
  return "";
}

/** `_build_context_from_messages`: `[ROLE]: content` per message (thinking messages skipped), blank-line separated. */
export function contextFromMessages(messages: JsonObject[]): string {
  return messages
    .filter((m) => (m.role ?? "unknown") !== "thinking")
    .map((m) => `[${str(m.role ?? "unknown").toUpperCase()}]: ${str(m.content ?? "")}`)
    .join("\n\n");
}

/** `_extract_verdict`: whichever label appears last; without either, YES / NO on the last line; NO by default. */
export function extractVerdict(text: string, yes: string, no: string): "YES" | "NO" {
  const y = text.lastIndexOf(yes);
  const n = text.lastIndexOf(no);
  if (y < 0 && n < 0) {
    const last = pyStrip(pyStrip(text).split("\n").at(-1)!).toUpperCase();
    return last.includes("YES") ? "YES" : "NO";
  }
  return y > n ? "YES" : "NO";
}

export function aggregate(scores: number[], weights: number[], mode: MultiChallengeConfig["aggregation_mode"]): number {
  if (scores.length === 0) return 0;
  const sum = (xs: number[]) => Number(pySum(xs));
  switch (mode) {
    case "mean":
      return sum(scores) / scores.length;
    case "min":
      return Math.min(...scores);
    case "max":
      return Math.max(...scores);
    case "all":
      return scores.every((s) => s >= 0.99) ? 1 : 0;
    case "any":
      return scores.some((s) => s >= 0.99) ? 1 : 0;
    case "weighted": {
      const total = sum(weights);
      return total === 0 ? 0 : sum(scores.map((s, i) => s * weights[i]!)) / total;
    }
  }
}

async function evaluate(judge: Judge, config: MultiChallengeConfig, item: JsonObject, context: string, response: string): Promise<JsonObject> {
  const question = Object.hasOwn(item, "question") ? item.question : "";
  const passCriteria = Object.hasOwn(item, "pass_criteria") ? item.pass_criteria : "YES";
  const weight = Object.hasOwn(item, "weight") ? item.weight : 1.0;
  if (typeof question !== "string" || typeof passCriteria !== "string" || typeof weight !== "number") {
    throw new Error("ValidationError: RubricEvaluation: question and pass_criteria must be strings, weight a number");
  }
  const judgePrompt = pyFormat(config.judge_prompt_template, { context, response, question, pass_criteria: passCriteria });
  const input: JsonObject[] = config.judge_system_message ? [{ role: "system", content: config.judge_system_message }] : [];
  input.push({ role: "user", content: judgePrompt });
  const judgeText = finalText((await judge.responses(input)).response);
  const verdict = extractVerdict(judgeText, config.yes_label, config.no_label);
  const expected = passCriteria.toUpperCase() === "NO" ? "NO" : "YES";
  return { question, pass_criteria: passCriteria, judge_prompt: judgePrompt, judge_response: judgeText, verdict, score: pyFloat(verdict === expected ? 1 : 0), weight: pyFloat(weight) };
}

export default defineResourcesServer<MultiChallengeConfig, Judge>({
  name: "multichallenge",
  className: "MultiChallengeServer",
  config: {
    fields: {
      ...judgeConfigFields({ maxConcurrency: null }),
      aggregation_mode: py.withDefault(py.literal(MODES), () => "mean"),
      judge_prompt_template: py.withDefault(py.str(), () => DEFAULT_TEMPLATE),
      judge_system_message: py.optional(py.str(), () => DEFAULT_SYSTEM),
      parallel_evaluation: py.withDefault(py.bool(), () => true),
      yes_label: py.withDefault(py.str(), () => "[[YES]]"),
      no_label: py.withDefault(py.str(), () => "[[NO]]"),
    },
  },
  createState: (config, { servers }) => new Judge(config, servers),
  verify: {
    request: {
      fields: {
        uuid: py.optional(py.any()),
        task_id: py.optional(py.int()),
        rubric: py.optional(py.list(py.dict())),
        context: py.optional(py.str()),
        metadata: py.optional(py.dict()),
      },
      extra: "allow",
    },
    response: ["context", "generated_response", "rubric_evaluations", "aggregation_mode", "num_passed", "num_total"],
    echoExtra: true,
    async handler(body, { config, state: judge }) {
      const generated = finalText(body.response as JsonObject);
      const metadata = body.metadata as JsonObject | null;
      const hasMeta = metadata !== null && Object.keys(metadata).length > 0;
      let context = (body.context as string | null) || "";
      if (!context && hasMeta && Object.hasOwn(metadata, "messages")) context = contextFromMessages(metadata.messages as JsonObject[]);
      let rubric = ((body.rubric as JsonObject[] | null) || []) as JsonObject[];
      if (rubric.length === 0 && hasMeta && Object.hasOwn(metadata, "rubric")) rubric = metadata.rubric as JsonObject[];
      const run = (item: JsonObject) => evaluate(judge, config, item, context, generated);
      const evaluations: JsonObject[] = config.parallel_evaluation && rubric.length > 1 ? await Promise.all(rubric.map(run)) : [];
      if (evaluations.length === 0) for (const item of rubric) evaluations.push(await run(item));
      const scores = evaluations.map((e) => Number(e.score));
      return {
        // Popped from the echoed payload, as app.py pops it (an undefined value is left out of the row).
        rubric: undefined,
        reward: aggregate(scores, evaluations.map((e) => Number(e.weight)), config.aggregation_mode),
        context,
        generated_response: generated,
        rubric_evaluations: evaluations,
        aggregation_mode: config.aggregation_mode,
        num_passed: scores.filter((s) => s >= 0.99).length,
        num_total: evaluations.length,
      };
    },
  },
});

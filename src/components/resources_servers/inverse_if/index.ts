/**
 * inverse_if: Inverse IF instruction following, one LLM-judge call per rubric criterion with the task's own judge
 * template and system prompt (the config's defaults as fallback); each answers `{"result": "PASS"|"FAIL",
 * "explanation": …}` and the scores are aggregated by `aggregation_mode`.
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { pyCompile } from "../_python/re.ts";
import { pyStrip } from "../_python/text.ts";
import { Judge, judgeConfigFields, lastAssistantText, pyFormat, type JudgeConfig } from "../_judge/index.ts";
import { stripThinking } from "../_judge/text.ts";

const MODES = ["mean", "min", "max", "all", "any", "weighted"] as const;

export interface InverseIFConfig extends JudgeConfig {
  aggregation_mode: (typeof MODES)[number];
  default_judge_prompt_template: string;
  default_judge_system_prompt: string;
  parallel_evaluation: boolean;
}

/** The last assistant message's text with thinking removed (app.py's `_extract_text_from_response`). */
export const answerText = (response: JsonObject) => stripThinking(lastAssistantText(response));

const FENCED = pyCompile("```(?:json)?\\s*(\\{.*?\\})\\s*```", { dotAll: true });
const INLINE = pyCompile(String.raw`\{[^{}]*"result"\s*:\s*"(PASS|FAIL)"[^{}]*\}`, { ignoreCase: true });

function fromJson(text: string): [string, unknown] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
  const result = (parsed as JsonObject).result ?? "";
  if (typeof result !== "string") return undefined;
  const verdict = pyStrip(result.toUpperCase());
  return verdict === "PASS" || verdict === "FAIL" ? [verdict, (parsed as JsonObject).explanation ?? ""] : undefined;
}

/** `_extract_verdict`: a fenced JSON object, else an inline `{…"result": "PASS|FAIL"…}`, else PASS/FAIL in the last five lines; FAIL by default. */
export function extractVerdict(judgeText: string): [string, unknown] {
  const fenced = FENCED.search.exec(judgeText);
  const fromFenced = fenced && fromJson(fenced[1]!);
  if (fromFenced) return fromFenced;
  const inline = INLINE.search.exec(judgeText);
  const fromInline = inline && fromJson(inline[0]);
  if (fromInline) return fromInline;
  for (const line of pyStrip(judgeText).split("\n").slice(-5).reverse()) {
    const upper = pyStrip(line).toUpperCase();
    if (upper.includes("PASS")) return ["PASS", ""];
    if (upper.includes("FAIL")) return ["FAIL", ""];
  }
  return ["FAIL", ""];
}

export function aggregate(scores: number[], mode: InverseIFConfig["aggregation_mode"]): number {
  if (scores.length === 0) return 0.0;
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  switch (mode) {
    case "min":
      return Math.min(...scores);
    case "max":
      return Math.max(...scores);
    case "all":
      return scores.every((s) => s >= 0.99) ? 1.0 : 0.0;
    case "any":
      return scores.some((s) => s >= 0.99) ? 1.0 : 0.0;
    default:
      return mean;
  }
}

async function evaluateCriterion(judge: Judge, item: JsonObject, values: { prompt: string; model_response: string; standard_response: string }, template: string, system: string): Promise<JsonObject> {
  const criteria = (item.criteria ?? "") as string;
  const judgePrompt = pyFormat(template, { ...values, criteria: String(criteria) });
  const input: JsonObject[] = system ? [{ role: "system", content: system }] : [];
  input.push({ role: "user", content: judgePrompt });
  const judgeText = answerText((await judge.responses(input)).response);
  const [verdict, explanation] = extractVerdict(judgeText);
  if (typeof explanation !== "string") throw new Error("ValidationError: RubricEvaluation.explanation: Input should be a valid string");
  return { criterion_id: item.id ?? "", criteria, judge_prompt: judgePrompt, judge_response: judgeText, verdict, explanation, score: verdict === "PASS" ? 1.0 : 0.0 };
}

export default defineResourcesServer<InverseIFConfig, Judge>({
  name: "inverse_if",
  className: "InverseIFServer",
  config: {
    fields: {
      ...judgeConfigFields({ maxConcurrency: null }),
      aggregation_mode: py.withDefault(py.literal(MODES), () => "mean"),
      default_judge_prompt_template: py.str(),
      default_judge_system_prompt: py.str(),
      parallel_evaluation: py.withDefault(py.bool(), () => true),
    },
  },
  createState: (config, { servers }) => new Judge(config, servers),
  verify: {
    request: {
      fields: {
        uuid: py.optional(py.any()),
        task_id: py.optional(py.int()),
        prompt: py.optional(py.str()),
        rubric: py.optional(py.list(py.dict())),
        reference_response: py.optional(py.str()),
        judge_prompt_template: py.optional(py.str()),
        judge_system_prompt: py.optional(py.str()),
        metadata: py.optional(py.dict()),
      },
      extra: "allow",
    },
    response: ["prompt", "generated_response", "reference_response", "rubric_evaluations", "aggregation_mode", "num_passed", "num_total"],
    echoExtra: true,
    async handler(body, { config, state: judge }) {
      const generated = answerText(body.response as JsonObject);
      let prompt = (body.prompt as string | null) || "";
      let reference = (body.reference_response as string | null) || "";
      let rubric = ((body.rubric as JsonObject[] | null) || []) as JsonObject[];
      const template = (body.judge_prompt_template as string | null) || config.default_judge_prompt_template;
      const system = (body.judge_system_prompt as string | null) || config.default_judge_system_prompt;
      const metadata = body.metadata as JsonObject | null;
      if (metadata && Object.keys(metadata).length > 0) {
        if (!prompt) prompt = (metadata.prompt ?? "") as string;
        if (!reference) reference = (metadata.reference_response ?? "") as string;
        if (rubric.length === 0) rubric = (metadata.rubric ?? []) as JsonObject[];
      }
      const values = { prompt, model_response: generated, standard_response: reference };
      const evaluations: JsonObject[] = [];
      if (config.parallel_evaluation && rubric.length > 1) evaluations.push(...(await Promise.all(rubric.map((item) => evaluateCriterion(judge, item, values, template, system)))));
      else for (const item of rubric) evaluations.push(await evaluateCriterion(judge, item, values, template, system));
      const scores = evaluations.map((e) => e.score as number);
      return {
        // Popped from the echoed payload, as app.py pops them (an undefined value is left out of the row).
        rubric: undefined,
        judge_prompt_template: undefined,
        judge_system_prompt: undefined,
        reward: aggregate(scores, config.aggregation_mode),
        prompt,
        generated_response: generated,
        reference_response: reference,
        rubric_evaluations: evaluations,
        aggregation_mode: config.aggregation_mode,
        num_passed: scores.filter((s) => s >= 0.99).length,
        num_total: evaluations.length,
      };
    },
  },
});

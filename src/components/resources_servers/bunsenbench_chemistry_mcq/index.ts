/**
 * bunsenbench_chemistry_mcq: BunsenBench chemistry multiple choice on mcqa's metrics, with its own answer reading
 * (`<choice>` tags, boxes, answer lines, option text), one error mode per rollout (correct, wrong_answer, refusal,
 * early_termination, malformed_choice, format_violation) and accuracy by source, BCT field and subfield.
 */
import { computePassMajorityMetrics, highestKMetrics } from "../../../metrics/pass-k.ts";
import { PyFloat, pyFloat } from "../../../metrics/pyjson.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { outputText } from "../_common/output.ts";
import { pyRepr } from "../_python/errors.ts";
import { pyCompile, pyFindall } from "../_python/re.ts";
import { pyIsAlphaChar, pyLen, pyStrip } from "../_python/text.ts";
import mcqa from "../mcqa/index.ts";
import { allowedLetters } from "../mcqa/extract.ts";
import { choiceTagPresent, extractBunsenAnswer, parseCandidate, stripWrappers, type Options } from "./extract.ts";

export const ERROR_MODES = ["correct", "wrong_answer", "refusal", "early_termination", "malformed_choice", "format_violation"] as const;

const THINK_OPEN = pyCompile(String.raw`<\s*think\b[^>]*>`, { ignoreCase: true });
const THINK_CLOSE = pyCompile(String.raw`<\s*/\s*think\s*>`, { ignoreCase: true });
const REFUSAL = pyCompile(
  String.raw`(?i)(?:` +
    String.raw`i\s*(?:'|’)?\s*m\s+sorry[, ]+(?:but\s+)?i\s+(?:can(?:'|’)?t|cannot|am\s+unable|won(?:'|’)?t)` +
    String.raw`|i\s+(?:can(?:'|’)?t|cannot)\s+(?:help|assist|comply|provide|answer|do\s+that|continue)` +
    String.raw`|i\s+am\s+(?:not\s+able|unable)\s+to\s+(?:help|assist|comply|provide|answer)` +
    String.raw`|i\s+won(?:'|’)?t\s+be\s+able\s+to\s+(?:help|assist|provide|answer)` +
    String.raw`|as\s+an\s+ai(?:\s+language)?\s+model[, ]+i` +
    String.raw`|i\s+(?:must|have\s+to|will\s+have\s+to)\s+(?:decline|refuse)` +
    String.raw`|i\s+do\s+not\s+feel\s+comfortable` +
    String.raw`)`,
);

/** The row's options (null texts dropped), else built from `choices` (strings, or objects with a letter and a text). */
function optionsOf(body: JsonObject): Options {
  const options = body.options as Record<string, string | null>[] | null;
  if (options && options.length > 0) return options.map((e) => Object.fromEntries(Object.entries(e).filter(([, v]) => v !== null)) as Record<string, string>);
  const out: Options = [];
  for (const [index, choice] of ((body.choices as unknown[] | null) ?? []).entries()) {
    if (index >= 26) break;
    const fallback = String.fromCharCode(65 + index);
    if (typeof choice === "string") {
      out.push({ [fallback]: choice });
      continue;
    }
    const c = choice as JsonObject;
    const letter = [c.letter, c.label, c.key, c.id].find(truthy) ?? fallback;
    const text = [c.text, c.content, c.value, c.choice].find(truthy);
    if (typeof letter === "string" && typeof text === "string" && pyLen(pyStrip(letter)) === 1) out.push({ [pyStrip(letter).toUpperCase()]: text });
  }
  return out;
}

/** Python truthiness of a JSON value (a PyFloat 0.0 is falsy). */
const truthy = (v: unknown): boolean => {
  if (v instanceof PyFloat) return v.value !== 0;
  if (v === null || v === undefined || v === "" || v === false || v === 0) return false;
  if (Array.isArray(v)) return v.length > 0;
  return typeof v !== "object" || Object.keys(v as object).length > 0;
};

function goldLetter(expected: string, options: Options): string {
  const stripped = stripWrappers(expected).toUpperCase();
  if (pyLen(stripped) === 1 && pyIsAlphaChar(stripped)) return stripped;
  return parseCandidate(expected, options, allowedLetters(options)) || stripped;
}

function truncated(response: JsonObject): boolean {
  if (response.status === "incomplete") return true;
  if ((response.incomplete_details as JsonObject | null)?.reason === "max_output_tokens") return true;
  return ((response.output as JsonObject[] | undefined) ?? []).some((item) => item?.status === "incomplete");
}

const hasRefusalPart = (response: JsonObject) =>
  ((response.output as JsonObject[] | undefined) ?? []).some((item) => Array.isArray(item?.content) && (item.content as JsonObject[]).some((part) => part?.type === "refusal"));

/** The one error mode of a rollout. */
export function errorMode(response: JsonObject, text: string, pred: string | null, gold: string): (typeof ERROR_MODES)[number] {
  if (pred !== null) return pred === gold ? "correct" : "wrong_answer";
  if (hasRefusalPart(response)) return "refusal";
  if (truncated(response) || pyFindall(THINK_OPEN, text).length > pyFindall(THINK_CLOSE, text).length) return "early_termination";
  if (REFUSAL.search.test(text)) return "refusal";
  return choiceTagPresent(text) ? "malformed_choice" : "format_violation";
}

/** A metric-key segment: whitespace to `_`, `/` to `__`, other characters outside [A-Za-z0-9_.:+-] to `_`. */
export function metricSegment(value: unknown): string {
  const s = pyStrip(typeof value === "string" ? value : pyRepr(value)).replace(/\s+/gu, "_").replaceAll("/", "__").replace(/[^A-Za-z0-9_.:+-]+/g, "_");
  return pyStrip(s, "_") || "unknown";
}

const firstValue = (rollouts: JsonObject[], key: string) => rollouts.map((r) => r[key]).find(truthy) ?? null;
const accuracy = (tasks: JsonObject[][]) => computePassMajorityMetrics(tasks, { scoreFn: (r) => ({ accuracy: r.reward }), answerKey: "extracted_answer" }).metrics as JsonObject;

function grouped(tasks: JsonObject[][], bucketOf: (rollouts: JsonObject[]) => string | null, prefix: string): JsonObject {
  const buckets = new Map<string, JsonObject[][]>();
  for (const rollouts of tasks) {
    const bucket = bucketOf(rollouts);
    if (bucket !== null) buckets.set(bucket, [...(buckets.get(bucket) ?? []), rollouts]);
  }
  const out: JsonObject = {};
  for (const [value, subset] of buckets) for (const [k, v] of Object.entries(accuracy(subset))) if (k !== "per_sample_aggregate") out[`${prefix}/${value}/${k}`] = v;
  return out;
}

function errorModeMetrics(tasks: JsonObject[][]): JsonObject {
  const counts = new Map<string, number>(ERROR_MODES.map((m) => [m, 0]));
  let total = 0;
  for (const r of tasks.flat()) {
    const mode = truthy(r.error_mode) ? String(r.error_mode) : truthy(r.reward) ? "correct" : r.extracted_answer !== null && r.extracted_answer !== undefined ? "wrong_answer" : "format_violation";
    counts.set(mode, (counts.get(mode) ?? 0) + 1);
    total += 1;
  }
  const out: JsonObject = {};
  for (const [mode, count] of counts) {
    out[`error_modes/${mode}/count`] = pyFloat(count);
    out[`error_modes/${mode}`] = pyFloat(total ? (100 * count) / total : 0);
  }
  return out;
}

const parent = mcqa.definition;

export default defineResourcesServer({
  name: "bunsenbench_chemistry_mcq",
  className: "BunsenChemResourcesServer",
  config: parent.config,
  // NeMo Gym pins this server back to UNKNOWN (not mcqa's STATELESS) until it is reviewed for reverify.
  reverifyMode: "unknown",
  verify: {
    request: {
      fields: {
        ...parent.verify!.request!.fields,
        bunsen_id: py.optional(py.str()),
        choices: py.optional(py.list(py.any())),
        source: py.optional(py.str()),
        bct_field: py.optional(py.str()),
        bct_subfield: py.optional(py.str()),
      },
    },
    response: ["expected_answer", "extracted_answer", "uuid", "bunsen_id", "choices", "no_answer", "error_mode", "source", "bct_field", "bct_subfield", "metadata"],
    handler(body) {
      const options = optionsOf(body);
      const allowed = allowedLetters(options);
      const gold = goldLetter((body.expected_answer as string | null) || "", options);
      if (pyLen(gold) === 1 && pyIsAlphaChar(gold)) allowed.add(gold);
      const response = body.response as JsonObject;
      const raw = outputText(response);
      const text = pyStrip(raw);
      const pred = text ? extractBunsenAnswer(text, options, allowed) : null;
      const meta = (body.metadata as JsonObject | null) ?? {};
      const fromMeta = (key: string) => body[key] ?? meta[key] ?? null;
      return {
        reward: pred !== null && pred === gold ? 1 : 0,
        expected_answer: gold,
        extracted_answer: pred,
        no_answer: pred === null,
        error_mode: errorMode(response, raw, pred, gold),
        bunsen_id: fromMeta("bunsen_id"),
        source: fromMeta("source"),
        bct_field: fromMeta("bct_field"),
        bct_subfield: fromMeta("bct_subfield"),
      };
    },
  },
  computeMetrics(tasks, config) {
    const metrics = parent.computeMetrics!(tasks, config) as JsonObject;
    for (const key of ["source", "bct_field"]) Object.assign(metrics, grouped(tasks, (r) => (truthy(firstValue(r, key)) ? metricSegment(firstValue(r, key)) : null), `by_${key}`));
    Object.assign(
      metrics,
      grouped(tasks, (r) => {
        const [field, sub] = [firstValue(r, "bct_field"), firstValue(r, "bct_subfield")];
        return truthy(field) && truthy(sub) ? `${metricSegment(field)}/${metricSegment(sub)}` : null;
      }, "by_bct_subfield"),
    );
    Object.assign(metrics, errorModeMetrics(tasks));
    return metrics;
  },
  keyMetrics(agentMetrics) {
    const key = parent.keyMetrics!(agentMetrics) as JsonObject;
    Object.assign(key, highestKMetrics(agentMetrics, "pass@{k}", ["accuracy"]));
    for (const name of ["pass@1/accuracy", "pass@1/no_answer", ...ERROR_MODES.map((m) => `error_modes/${m}`)]) if (name in agentMetrics) key[name] = agentMetrics[name] as never;
    return key;
  },
});

/** math_proof_judgement: the policy judges a proof ("Judgement: Yes/No"), parsed by regex and compared with `expected_judgement`; precision/recall/F1 across samples in its metrics. No LLM judge. */
import { computePassMajorityMetrics, highestKMetrics } from "../../../metrics/pass-k.ts";
import { pySum, toFloat } from "../../../metrics/numeric.ts";
import { pyFloat } from "../../../metrics/pyjson.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { pyCompile } from "../_python/re.ts";
import { pyStrip } from "../_python/text.ts";

const PREFIX = pyCompile(String.raw`\*{0,2}Judgement\*{0,2}\s*:`, { ignoreCase: true });

/** The first "Judgement: Yes/No" (bold allowed): true, false, or null when there is none. */
export function parseJudgement(text: unknown): boolean | null {
  if (typeof text !== "string" || !text) return null;
  const m = PREFIX.search.exec(text);
  if (!m) return null;
  const verdict = pyStrip(pyStrip(text.slice(m.index + m[0].length)).replace(/^\*+/, "")).toLowerCase();
  return verdict.startsWith("yes") ? true : verdict.startsWith("no") ? false : null;
}

/** Every assistant message's text (parts and string contents), joined by "\n", stripped. */
function assistantText(response: JsonObject): string {
  const texts: string[] = [];
  for (const item of (Array.isArray(response?.output) ? response.output : []) as JsonObject[]) {
    if (item.type !== "message" || item.role !== "assistant") continue;
    if (typeof item.content === "string") texts.push(item.content);
    else if (Array.isArray(item.content)) for (const part of item.content as JsonObject[]) if (typeof part?.text === "string") texts.push(part.text);
  }
  return pyStrip(texts.join("\n"));
}

const label = (v: boolean | null) => (v === true ? "Yes" : v === false ? "No" : null);
const fromLabel = (l: unknown) => (l === "Yes" ? true : l === "No" ? false : null);

/** (tp, fp, fn, tn) one-hot; all zero when either side is unknown. */
function confusion(pred: boolean | null, gt: boolean | null): [number, number, number, number] {
  if (pred === null || gt === null) return [0, 0, 0, 0];
  return [pred && gt ? 1 : 0, pred && !gt ? 1 : 0, !pred && gt ? 1 : 0, !pred && !gt ? 1 : 0];
}

const mean100 = (values: number[]) => (100.0 * toFloat(pySum(values))) / values.length;

/** Precision / recall / F1 per sample, macro-averaged (Skills' conventions for empty denominators). */
function precisionRecallF1(perSample: [number, number, number][], positives: number): [number, number, number] {
  if (perSample.length === 0) return [0, 0, 0];
  const p: number[] = [], r: number[] = [], f: number[] = [];
  for (const [tp, fp] of perSample) {
    const prec = tp + fp > 0 ? tp / (tp + fp) : 1.0;
    const rec = positives > 0 ? tp / positives : 1.0;
    p.push(prec);
    r.push(rec);
    f.push(prec + rec > 0 ? (2 * prec * rec) / (prec + rec) : 0.0);
  }
  return [mean100(p), mean100(r), mean100(f)];
}

function passVerdict(preds: (boolean | null)[], gt: boolean | null): boolean | null {
  if (gt !== null && preds.includes(gt)) return gt;
  return preds.find((p) => p !== null) ?? null;
}

function majorityVerdict(preds: (boolean | null)[]): boolean | null {
  const yes = preds.filter((p) => p === true).length;
  const no = preds.filter((p) => p === false).length;
  if (yes === 0 && no === 0) return null;
  if (yes !== no) return yes > no;
  return preds.find((p) => p !== null) ?? null;
}

/** pass@1[avg-of-k], pass@k and majority@k precision/recall/F1, plus total_positives. */
export function classificationMetrics(tasks: JsonObject[][]): JsonObject {
  if (tasks.length === 0) return {};
  const maxK = Math.max(...tasks.map((t) => t.length));
  if (maxK === 0) return {};
  const gold = tasks.map((t) => (t.length ? parseJudgement(t[0]!.expected_judgement) : null));
  const positives = gold.filter((g) => g === true).length;
  const out: JsonObject = {};
  const put = (prefix: string, [p, r, f]: [number, number, number]) => {
    out[`${prefix}/precision`] = pyFloat(p);
    out[`${prefix}/recall`] = pyFloat(r);
    out[`${prefix}/f1`] = pyFloat(f);
  };
  const tally = (pick: (rollouts: JsonObject[], gt: boolean | null) => boolean | null | undefined): [number, number, number] => {
    let tp = 0, fp = 0, fn = 0;
    tasks.forEach((rollouts, i) => {
      const pred = pick(rollouts, gold[i]!);
      if (pred === undefined) return;
      const [a, b, c] = confusion(pred, gold[i]!);
      tp += a; fp += b; fn += c;
    });
    return [tp, fp, fn];
  };
  const perSample = Array.from({ length: maxK }, (_, s) => tally((rollouts) => (s < rollouts.length ? fromLabel(rollouts[s]!.extracted_judgement) : undefined)));
  for (let k = 1; k <= maxK; k++) put(`pass@1[avg-of-${k}]`, precisionRecallF1(perSample.slice(0, k), positives));
  const predsOf = (rollouts: JsonObject[], k: number) => rollouts.slice(0, k).map((r) => fromLabel(r.extracted_judgement));
  for (let k = 1; k <= maxK; k++) put(`pass@${k}`, precisionRecallF1([tally((rollouts, gt) => passVerdict(predsOf(rollouts, k), gt))], positives));
  for (let k = 1; k <= maxK; k++) put(`majority@${k}`, precisionRecallF1([tally((rollouts) => majorityVerdict(predsOf(rollouts, k)))], positives));
  out.total_positives = pyFloat(positives);
  return out;
}

const f = (row: JsonObject, key: string) => pyFloat(Number(key in row ? row[key] : 0.0));

export default defineResourcesServer({
  name: "math_proof_judgement",
  className: "MathProofJudgementResourcesServer",
  verify: {
    request: { fields: { expected_judgement: py.optional(py.str()), problem_id: py.optional(py.str()), problem: py.optional(py.str()), proof: py.optional(py.str()) }, extra: "allow" },
    response: ["expected_judgement", "extracted_judgement", "tp", "fp", "fn", "tn"],
    echoExtra: true,
    handler(body) {
      const pred = parseJudgement(assistantText(body.response as JsonObject));
      const gt = parseJudgement(body.expected_judgement);
      const [tp, fp, fn, tn] = confusion(pred, gt);
      return { reward: pred !== null && gt !== null && pred === gt ? 1.0 : 0.0, extracted_judgement: label(pred), tp, fp, fn, tn };
    },
  },
  computeMetrics(tasks) {
    const scoreFn = (r: JsonObject) => ({ accuracy: f(r, "reward"), true_positive: f(r, "tp"), false_positive: f(r, "fp"), false_negative: f(r, "fn"), true_negative: f(r, "tn") });
    return { ...computePassMajorityMetrics(tasks, { scoreFn, answerKey: "extracted_judgement" }).metrics, ...classificationMetrics(tasks) };
  },
  keyMetrics(agentMetrics) {
    const key: JsonObject = {};
    if ("mean/reward" in agentMetrics) key["mean/reward"] = agentMetrics["mean/reward"];
    Object.assign(key, highestKMetrics(agentMetrics, "pass@1[avg-of-{k}]", ["accuracy", "f1", "precision", "recall", "no_answer"]));
    Object.assign(key, highestKMetrics(agentMetrics, "pass@{k}", ["accuracy", "f1", "no_answer"]));
    Object.assign(key, highestKMetrics(agentMetrics, "majority@{k}", ["accuracy", "f1"]));
    return key;
  },
});

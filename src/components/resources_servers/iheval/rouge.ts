/**
 * ROUGE-1 and ROUGE-L as Google's `rouge_score` computes them without a stemmer: lower-case, every run of
 * characters outside [a-z0-9] becomes a space (so accented and non-Latin letters split words and vanish), tokens split
 * on whitespace; unigram overlap / longest common subsequence, precision, recall and F-measure.
 */
export interface RougeScore {
  precision: number;
  recall: number;
  fmeasure: number;
}

/** rouge_score's default tokenizer (use_stemmer=False). */
export function rougeTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .split(/\s+/)
    .filter((t) => /^[a-z0-9]+$/.test(t));
}

function fmeasure(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

/** ROUGE-1 of a prediction against a target. */
export function rouge1(target: string, prediction: string): RougeScore {
  const t = rougeTokens(target);
  const p = rougeTokens(prediction);
  const counts = new Map<string, number>();
  for (const w of p) counts.set(w, (counts.get(w) ?? 0) + 1);
  const targetCounts = new Map<string, number>();
  for (const w of t) targetCounts.set(w, (targetCounts.get(w) ?? 0) + 1);
  let overlap = 0;
  for (const [w, n] of targetCounts) overlap += Math.min(n, counts.get(w) ?? 0);
  const precision = overlap / Math.max(p.length, 1);
  const recall = overlap / Math.max(t.length, 1);
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

/** ROUGE-L (sentence-level LCS) of a prediction against a target. */
export function rougeL(target: string, prediction: string): RougeScore {
  const t = rougeTokens(target);
  const p = rougeTokens(prediction);
  if (t.length === 0 || p.length === 0) return { precision: 0, recall: 0, fmeasure: 0 };
  let prev = new Array<number>(p.length + 1).fill(0);
  for (let i = 1; i <= t.length; i++) {
    const row = new Array<number>(p.length + 1).fill(0);
    for (let j = 1; j <= p.length; j++) row[j] = t[i - 1] === p[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!);
    prev = row;
  }
  const lcs = prev[p.length]!;
  const precision = lcs / p.length;
  const recall = lcs / t.length;
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

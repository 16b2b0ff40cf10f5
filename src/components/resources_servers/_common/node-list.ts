/**
 * The graph-answer grade graphwalks and lc_niah share (openai/graphwalks' reference): the node list of a last-line
 * `Final Answer: [a, b]`, the expected nodes as `set(json.loads(answer))`, and F1 between the two sets.
 */
import { pyCompile } from "../_python/re.ts";
import { pyStrip } from "../_python/text.ts";

const FINAL_ANSWER = pyCompile(String.raw`Final Answer:\s*\[(.*)\]`);

/**
 * `Final Answer: [...]` on the last non-blank line (lines split on "\n" of the stripped text): the items split on ","
 * and stripped (also of quotes when `stripQuotes`, as lc_niah does), empties dropped; `parseFailed` without one.
 */
export function parseNodeList(response: string, stripQuotes = false): { nodes: string[]; parseFailed: boolean } {
  const lines = pyStrip(response).split("\n").filter((line) => pyStrip(line) !== "");
  if (lines.length === 0) return { nodes: [], parseFailed: true };
  const match = FINAL_ANSWER.search.exec(lines[lines.length - 1]!);
  if (!match) return { nodes: [], parseFailed: true };
  const content = match[1]!;
  if (pyStrip(content) === "") return { nodes: [], parseFailed: false };
  const clean = (raw: string) => (stripQuotes ? pyStrip(pyStrip(pyStrip(raw), "\"'")) : pyStrip(raw));
  return { nodes: content.split(",").map(clean).filter((item) => item !== ""), parseFailed: false };
}

/** A hashable Python value as a set key: 1, 1.0 and True are one key; "1" another. */
function setKey(value: unknown): string | undefined {
  if (typeof value === "string") return `s${value}`;
  if (typeof value === "number") return `n${value}`;
  if (typeof value === "boolean") return `n${value ? 1 : 0}`;
  if (value === null) return "None";
  return undefined;
}

/** `set(json.loads(answer))`, empty where Python raises (not JSON, not iterable, an unhashable item); as set keys. */
export function expectedNodeKeys(answer: string): Set<string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    return new Set();
  }
  const items = typeof parsed === "string" ? Array.from(parsed) : Array.isArray(parsed) ? parsed : parsed !== null && typeof parsed === "object" ? Object.keys(parsed) : undefined;
  if (items === undefined) return new Set();
  const keys = items.map(setKey);
  return keys.includes(undefined) ? new Set() : new Set(keys as string[]);
}

/** F1 of two node sets: 0 when the parse failed, 1 when both are empty, 0 when one is, else 2PR/(P+R). */
export function nodeF1(predicted: readonly string[], expected: Set<string>, parseFailed: boolean): number {
  if (parseFailed) return 0;
  const pred = new Set(predicted.map((node) => `s${node}`));
  if (pred.size === 0 && expected.size === 0) return 1;
  if (pred.size === 0 || expected.size === 0) return 0;
  let tp = 0;
  for (const key of pred) if (expected.has(key)) tp++;
  if (tp === 0) return 0;
  const precision = tp / pred.size;
  const recall = tp / expected.size;
  return (2 * precision * recall) / (precision + recall);
}

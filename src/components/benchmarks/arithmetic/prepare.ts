/** Generates the arithmetic benchmark from a seed: four-option questions on + − ×, nothing downloaded. */
import type { PrepareContext } from "../_prepare.ts";

const LETTERS = ["A", "B", "C", "D"];

/** mulberry32: a tiny seeded generator, so the same seed gives the same benchmark on every machine. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One question: operands and operator from the generator, three distinct wrong answers near the right one. */
export function arithmeticRow(index: number, random: () => number, seed: number): Record<string, unknown> {
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const op = ["+", "-", "×"][int(0, 2)]!;
  const a = op === "×" ? int(2, 99) : int(10, 9999);
  const b = op === "×" ? int(2, 99) : int(10, 9999);
  const answer = op === "+" ? a + b : op === "-" ? a - b : a * b;
  const choices = new Set([answer]);
  while (choices.size < 4) {
    const delta = int(1, Math.max(9, Math.floor(Math.abs(answer) / 10)));
    choices.add(answer + (random() < 0.5 ? -delta : delta));
  }
  const values = [...choices];
  for (let i = values.length - 1; i > 0; i--) {
    const j = int(0, i);
    [values[i], values[j]] = [values[j]!, values[i]!];
  }
  const question = `What is ${a} ${op} ${b}?`;
  const optionsText = values.map((v, i) => `${LETTERS[i]}: ${v}`).join("\n");
  return {
    task_id: `arithmetic-${seed}-${String(index).padStart(4, "0")}`,
    question,
    options_text: optionsText,
    problem: `${question}\n${optionsText}`,
    options: values.map((v, i) => ({ [LETTERS[i]!]: String(v) })),
    expected_answer: LETTERS[values.indexOf(answer)],
  };
}

/** `prepare_script_args`: `num_problems` (default 100) and `seed` (default 0). */
export async function prepare(context: PrepareContext): Promise<string> {
  const count = Number(context.args.num_problems ?? 100);
  const seed = Number(context.args.seed ?? 0);
  if (!Number.isInteger(count) || count < 1) throw new Error(`prepare_script_args.num_problems must be a positive integer, got ${context.args.num_problems}`);
  const random = generator(seed);
  const rows = Array.from({ length: count }, (_, i) => arithmeticRow(i, random, seed));
  await context.writeRows(context.outputPath, rows);
  context.log(`Wrote ${rows.length} arithmetic problems (seed ${seed}) to ${context.outputPath}`);
  return context.outputPath;
}

/**
 * supergpqa: m-a-p/SuperGPQA's train split as NeMo Gym's benchmarks/supergpqa/prepare.py writes it: options cleaned
 * (stripped, double spaces halved), shuffled by one Python `random.Random(random_seed)` over the whole file (MT19937,
 * ported), the answer letter re-found, uuid5 of (uuid, split, shuffled choices), discipline as the metrics subset.
 * `prepare_script_args`: random_seed (default 42).
 */
import { GymError } from "../../../errors.ts";
import { PyRandom } from "../../resources_servers/_nlp/python-random.ts";
import { pyStrip } from "../../resources_servers/_python/text.ts";
import { writePythonJsonl } from "../_math.ts";
import type { Row } from "../_hub-rows.ts";
import type { PrepareContext } from "../_prepare.ts";
import { seedUuid, splitRows } from "../_splits.ts";

export const HF_REPO_ID = "m-a-p/SuperGPQA";
const letter = (i: number) => String.fromCharCode(65 + i);

/** `_preprocess`: None becomes one space; otherwise stripped, each "  " replaced by " " once. */
const clean = (text: unknown) => (text === null || text === undefined ? " " : pyStrip(String(text)).replaceAll("  ", " "));

/** `random.shuffle(x)`: Fisher–Yates from the end with `_randbelow`. */
function shuffle<T>(items: T[], rng: PyRandom): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}

export function supergpqaRow(entry: Row, rng: PyRandom, index: number): Row {
  const choices = (entry.options as unknown[]).map(clean);
  if (new Set(choices).size !== choices.length) {
    throw new GymError("E_INPUT_SCHEMA", `m-a-p/SuperGPQA row ${index + 1}: its choices are not unique: ${JSON.stringify(choices)}.`, { hint: "NeMo Gym's prepare.py refuses this row too: check the dataset revision." });
  }
  const answer = choices[pyStrip(String(entry.answer_letter)).toUpperCase().charCodeAt(0) - 65];
  const shuffled = [...choices];
  shuffle(shuffled, rng);
  return {
    question: entry.question,
    problem: `${entry.question}\n\n${shuffled.map((c, i) => `${letter(i)}: ${c}`).join("\n")}`,
    options: shuffled.map((c, i) => ({ [letter(i)]: c })),
    expected_answer: letter(shuffled.indexOf(answer!)),
    uuid: seedUuid({ uuid: entry.uuid, split: "test", choices: shuffled }, false),
    subset_for_metrics: entry.discipline,
    discipline: entry.discipline,
    field: entry.field,
    subfield: entry.subfield,
    difficulty: entry.difficulty,
    is_calculation: entry.is_calculation,
  };
}

export async function prepare(context: PrepareContext): Promise<string> {
  const seed = Number(context.args.random_seed ?? 42);
  if (!Number.isSafeInteger(seed) || seed < 0 || seed >= 2 ** 32) throw new GymError("E_USAGE", `random_seed must be an integer in [0, 2^32), not ${context.args.random_seed}.`);
  const entries = await splitRows(context, HF_REPO_ID, "train", ["options", "answer_letter", "question", "uuid", "discipline", "field", "subfield", "difficulty", "is_calculation"]);
  const rng = new PyRandom(seed);
  const count = writePythonJsonl(context.outputPath, entries.map((e, i) => supergpqaRow(e, rng, i)), false);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}

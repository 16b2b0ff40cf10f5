/**
 * bunsenbench_chemistry_mcq: NeMo Gym's `materialize.py` step over BunsenBench's reconstituted rows. Upstream, the
 * rows come from `nvidia/bunsen-bench`'s own `tools/reconstitute.py` (Python code fetched from the Hub and executed:
 * it rebuilds every question from its source dataset); gym does not run downloaded code, so it reads that tool's
 * output: `+prepare_script_args={reconstituted_jsonl: PATH}`. Each row is checked as materialize.py checks it, its
 * choices shuffled by Python's Random seeded from sha256(bunsen_id:prompt version), rendered as `<choices>` XML, and
 * written with sorted keys.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { GymError } from "../../../errors.ts";
import { stringifyPython } from "../../../metrics/pyjson.ts";
import { writeFileAtomic } from "../../../runtime/files.ts";
import { PyRandom } from "../../resources_servers/_nlp/python-random.ts";
import type { PrepareContext } from "../_prepare.ts";

type Row = Record<string, any>;
export const PROMPT_VERSION = "bunsen_chem_mcq_xml_choice_v1";
const CONFIG_FIELDS = ["bunsen_bench_revision", "bunsen_bench_config", "bunsen_bench_config_version"];
const MANIFEST_FIELDS = ["bunsen_id", "source", "source_dataset", "source_config", "source_split", "source_revision", "source_record_id", "source_row_index", "source_record_sha256", "canonical_problem_sha256", "bct_field", "bct_subfield"];
const PAYLOAD_FIELDS = ["question", "choices", "answer", "answer_index", "source_meta"];
const PUBLIC_FIELDS = [...CONFIG_FIELDS, ...MANIFEST_FIELDS].sort();
const EXPECTED = new Set([...PUBLIC_FIELDS, ...PAYLOAD_FIELDS]);
const REQUIRED = [...MANIFEST_FIELDS, ...PAYLOAD_FIELDS].filter((f) => f !== "source_meta").sort();

const fail = (message: string) => new GymError("E_INPUT_SCHEMA", message, { hint: "Regenerate the rows with BunsenBench's tools/reconstitute.py (nvidia/bunsen-bench v0.1.4, config chemistry_mcq)." });

/** materialize.py's `validate_reconstituted_rows`: fields, unique ids and source locators, the answer among ≥ 2 choices. */
export function validateRows(rows: Row[]): void {
  const ids = new Set<string>();
  const locators = new Set<string>();
  for (const row of rows) {
    const id = row.bunsen_id ?? "?";
    const missing = REQUIRED.filter((f) => !Object.hasOwn(row, f));
    if (missing.length) throw fail(`Reconstituted row ${id} is missing fields: ${JSON.stringify(missing)}`);
    const unexpected = Object.keys(row).filter((f) => !EXPECTED.has(f)).sort();
    if (unexpected.length) throw fail(`Reconstituted row ${id} has unexpected fields: ${JSON.stringify(unexpected)}`);
    if (ids.has(row.bunsen_id)) throw fail(`Duplicate bunsen_id: ${row.bunsen_id}`);
    ids.add(row.bunsen_id);
    const locator = JSON.stringify([row.source, row.source_record_id]);
    if (locators.has(locator)) throw fail(`Duplicate source locator: ${locator}`);
    locators.add(locator);
    if (!Array.isArray(row.choices) || row.choices.length < 2) throw fail(`Reconstituted row ${row.bunsen_id} must have at least two choices`);
    if (!row.choices.includes(row.answer)) throw fail(`Reconstituted row ${row.bunsen_id} answer is not present in choices`);
    if (row.answer_index !== row.choices.indexOf(row.answer)) throw fail(`Reconstituted row ${row.bunsen_id} has inconsistent answer_index`);
  }
}

/** `random.Random(int.from_bytes(sha256(seed_text)[:8], "big")).shuffle(values)`. */
export function deterministicShuffle<T>(values: T[], seedText: string): T[] {
  const digest = createHash("sha256").update(seedText, "utf8").digest();
  const rng = new PyRandom();
  rng.seedBigInt(digest.readBigUInt64BE(0));
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const escapeXml = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** One reconstituted row → one benchmark row (materialize.py's `materialize_row`). */
export function materializeRow(row: Row): Row {
  const shuffled = deterministicShuffle(row.choices as string[], `${row.bunsen_id}:${PROMPT_VERSION}`);
  const at = shuffled.flatMap((c, i) => (c === row.answer ? [i] : []));
  if (at.length !== 1) throw fail("Expected answer must appear exactly once after materialization");
  const metadata: Row = Object.fromEntries(PUBLIC_FIELDS.filter((k) => Object.hasOwn(row, k)).map((k) => [k, row[k]]));
  metadata.prompt_version = PROMPT_VERSION;
  return {
    question: row.question,
    options_text: ["<choices>", ...shuffled.map((c) => `<choice>${escapeXml(c)}</choice>`), "</choices>"].join("\n"),
    options: shuffled.map((c, i) => ({ [LETTERS[i]!]: c })),
    expected_answer: LETTERS[at[0]!],
    uuid: row.bunsen_id,
    metadata,
  };
}

/** json.dumps(sort_keys=True): every object's keys in code-point order, at every depth. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object" || value.constructor !== Object) return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Row)[k])]));
}

export async function prepare(context: PrepareContext): Promise<string> {
  const path = context.args.reconstituted_jsonl;
  const hint = "Run nvidia/bunsen-bench's tools/reconstitute.py (revision v0.1.4, config chemistry_mcq) to a JSONL file, then: gym eval prepare --benchmark bunsenbench_chemistry_mcq '+prepare_script_args={reconstituted_jsonl: rows.jsonl}'";
  if (typeof path !== "string") throw new GymError("E_MISSING_ARGUMENT", "bunsenbench_chemistry_mcq needs BunsenBench's reconstituted rows (prepare_script_args.reconstituted_jsonl).", { hint });
  if (!existsSync(path)) throw new GymError("E_INPUT_NOT_FOUND", `bunsenbench_chemistry_mcq: ${path} does not exist.`, { hint });
  const rows: Row[] = [];
  for (const [i, line] of readFileSync(path, "utf8").split("\n").entries()) {
    if (line.trim() === "") continue;
    try {
      rows.push(JSON.parse(line));
    } catch (error) {
      throw new GymError("E_INPUT_JSON", `${path} line ${i + 1} is not JSON: ${(error as Error).message}`, { hint: "Each line must be one reconstituted row." });
    }
  }
  validateRows(rows);
  const text = rows.map((r) => `${stringifyPython(sortKeys(materializeRow(r)), { spaced: true, ensureAscii: false })}\n`).join("");
  writeFileAtomic(context.outputPath, text);
  context.log(`Wrote ${rows.length} rows to ${context.outputPath}`);
  return context.outputPath;
}

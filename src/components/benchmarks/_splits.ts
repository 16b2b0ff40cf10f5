/**
 * What the multilingual and per-subject benchmarks' prepare steps share: `load_dataset(repo, config, split=…)` read
 * from the Hub's Parquet conversion (`<config>/<split>/0000.parquet`), list arguments from `prepare_script_args`,
 * and the `uuid5(NAMESPACE_URL, json.dumps(seed, sort_keys=True))` row ids NeMo Gym's prepare.py files compute.
 */
import { stringifyPython } from "../../metrics/pyjson.ts";
import { type Row, hubRows, requireColumns } from "./_hub-rows.ts";
import type { PrepareContext } from "./_prepare.ts";
import { NAMESPACE_URL, uuid5 } from "./_uuid5.ts";

/** A list argument (`+prepare_script_args={languages: [de, fr]}` or `"de fr"`), else the default. */
export function argList(value: unknown, fallback: readonly string[]): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === "string") return value.split(/[\s,]+/).filter(Boolean);
  return [...fallback];
}

/** Every row of one split of one config, with the columns the rows need checked. */
export async function splitRows(context: PrepareContext, repoId: string, split: string, required: string[], config = "default"): Promise<Row[]> {
  const file = { repoId, path: `${config}/${split}/0000.parquet`, revision: "refs/convert/parquet" };
  const rows = await hubRows(context, file);
  requireColumns(rows, required, file);
  return rows;
}

/** `str(uuid.uuid5(uuid.NAMESPACE_URL, json.dumps(seed, sort_keys=True, ensure_ascii=…)))` of a flat seed object. */
export function seedUuid(seed: Row, ensureAscii: boolean): string {
  const sorted = Object.fromEntries(Object.keys(seed).sort().map((k) => [k, seed[k]]));
  return uuid5(NAMESPACE_URL, stringifyPython(sorted, { spaced: true, ensureAscii }));
}

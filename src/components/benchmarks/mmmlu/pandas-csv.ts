/**
 * `pandas.read_csv(path, index_col=0)` then `row.to_dict()` per row, as NeMo Gym's MMMLU prepare reads simple-evals'
 * CSVs, for what those files hold: the C parser's quoting (`pandasCsvRows`), blank lines skipped, short rows padded
 * with NaN, pandas 1.5's default NA strings, and each column's type inferred from all its cells (int64, float64 once
 * a NaN joins ints, bool, else strings with NaN). NaN is `PANDAS_NAN` here: Python's json.dumps writes it `NaN`, str() "nan".
 */
import { PyFloat } from "../../../metrics/pyjson.ts";
import { PANDAS_1_5_NA as NA, pandasCsvRows } from "../../resources_servers/_nlp/csv.ts";

export const PANDAS_NAN = Number.NaN;
const INT = /^\s*[+-]?\d+\s*$/;
const FLOAT = /^\s*[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|inf|infinity)\s*$/i;
const TRUE = new Set(["True", "TRUE", "true"]);
const FALSE = new Set(["False", "FALSE", "false"]);

/**
 * A cell: a string, an int64 (a JS number), a bool, or a float64 (a PyFloat, whole or not: a float64 cell prints
 * as Python's repr of a float does, `1.0`, `0.25`, `inf`), NaN aside.
 */
export type Cell = string | number | boolean | PyFloat;

function column(cells: (string | null)[]): Cell[] {
  const present = cells.filter((c): c is string => c !== null && !NA.has(c));
  const hasNa = present.length < cells.length;
  const na = (c: string | null) => c === null || NA.has(c);
  if (present.length > 0 && present.every((c) => INT.test(c))) return cells.map((c) => (na(c) ? PANDAS_NAN : hasNa ? new PyFloat(Number(c)) : Number(c)));
  if (present.length > 0 && present.every((c) => FLOAT.test(c))) return cells.map((c) => (na(c) ? PANDAS_NAN : new PyFloat(Number(c!.trim().replace(/^([+-]?)inf(inity)?$/i, "$1Infinity")))));
  if (present.length === 0) return cells.map(() => PANDAS_NAN);
  // An all-bool column is bool; with a NaN it is object, the flags still Python bools.
  if (present.every((c) => TRUE.has(c) || FALSE.has(c))) return cells.map((c) => (na(c) ? PANDAS_NAN : TRUE.has(c!)));
  return cells.map((c) => (na(c) ? PANDAS_NAN : c!));
}

/** The records of a CSV whose first column is the index (dropped), keyed by the header's other names. */
export function readCsvIndexed(text: string, label: string): Record<string, Cell>[] {
  const rows = pandasCsvRows(text);
  const [header, ...body] = rows;
  if (!header) return [];
  for (const [i, r] of body.entries()) if (r.length > header.length) throw new Error(`${label}: Expected ${header.length} fields in line ${i + 2}, saw ${r.length}`);
  const names = header.slice(1);
  const columns = names.map((_, j) => column(body.map((r) => r[j + 1] ?? null)));
  return body.map((_, i) => Object.fromEntries(names.map((n, j) => [n, columns[j]![i]!])));
}

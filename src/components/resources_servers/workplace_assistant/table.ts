/** The few pandas DataFrame behaviours workplace_assistant's state depends on: CSV loading, row labels, filtering, appending and `DataFrame.equals` after lowercasing. */
import { PyException } from "../_python/errors.ts";
import { pyCompile } from "../_python/re.ts";
import { PANDAS_2_NA as NA, pandasCsvRows } from "../_nlp/csv.ts";

/** A cell: a string, a JSON value a tool stored, or null for pandas' NaN/None. */
export type Cell = unknown;
export type Row = Record<string, Cell>;

/** A table with pandas row labels (kept by filters, reset by `concat(ignore_index=True)`). */
export interface Table {
  readonly columns: readonly string[];
  rows: Row[];
  labels: number[];
}

/** `pd.read_csv(path, dtype=str)` (pandas 2's NA strings become NaN), or with `names` for a headerless file. */
export function readCsv(text: string, names?: string[]): Table {
  const records = pandasCsvRows(text);
  const columns = names ?? records.shift()!;
  const rows = records.map((r) => Object.fromEntries(columns.map((c, i) => [c, NA.has(r[i] ?? "") ? null : r[i]!])));
  return { columns, rows, labels: rows.map((_, i) => i) };
}

export function cloneTable(t: Table): Table {
  return { columns: t.columns, rows: t.rows.map((r) => ({ ...r })), labels: [...t.labels] };
}

/** `df[mask]`: rows kept with their labels. */
export function filterRows(t: Table, keep: (row: Row) => boolean): Table {
  const rows: Row[] = [];
  const labels: number[] = [];
  t.rows.forEach((row, i) => {
    if (keep(row)) rows.push(row), labels.push(t.labels[i]!);
  });
  return { columns: t.columns, rows, labels };
}

/** `pd.concat([df, one_row_frame])`: the new row's label is 0, or every label is renumbered with `ignoreIndex`. */
export function appendRow(t: Table, row: Row, ignoreIndex: boolean): Table {
  const rows = [...t.rows, Object.fromEntries(t.columns.map((c) => [c, row[c] ?? null]))];
  return { columns: t.columns, rows, labels: ignoreIndex ? rows.map((_, i) => i) : [...t.labels, 0] };
}

/** `value in df[column].values` (numpy `==`: a string never equals a number). */
export function columnHas(t: Table, column: string, value: Cell): boolean {
  return t.rows.some((r) => cellEquals(r[column], value));
}

function cellEquals(a: Cell, b: Cell): boolean {
  if (a === null || b === null) return false;
  if (typeof a === "boolean" || typeof b === "boolean") return Number(a) === Number(b) && typeof a !== "string" && typeof b !== "string";
  if (typeof a === "object" || typeof b === "object") return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/** `str(int(df[column].max()) + 1)`: the max is over strings (lexicographic), as pandas takes it on an object column. */
export function nextId(t: Table, column: string, width = 0): string {
  let max: string | undefined;
  for (const r of t.rows) {
    const v = r[column];
    if (typeof v === "string" && (max === undefined || v > max)) max = v;
  }
  if (max === undefined) throw new PyException("ValueError", "cannot convert float NaN to integer");
  if (!/^\s*[+-]?\d+\s*$/.test(max)) throw new PyException("ValueError", `invalid literal for int() with base 10: '${max}'`);
  return String(BigInt(max.trim()) + 1n).padStart(width, "0");
}

/** `series.str.contains(pattern, case=False)` (a regex); NaN cells make the mask unusable, as in pandas. */
export function containsMask(t: Table, column: string, pattern: unknown): (row: Row) => boolean {
  if (typeof pattern !== "string") throw new PyException("TypeError", "first argument must be string or compiled pattern");
  const re = pyCompile(pattern, { ignoreCase: true }).search;
  if (t.rows.some((r) => r[column] === null)) throw new PyException("ValueError", "Cannot mask with non-boolean array containing NA / NaN values");
  return (row) => {
    const v = row[column];
    return typeof v === "string" && re.test(v);
  };
}

/** `series >= value` / `<=` on a string column: NaN compares False; a non-string operand raises. */
export function compareMask(column: string, op: ">=" | "<=", value: unknown): (row: Row) => boolean {
  if (typeof value !== "string") throw new PyException("TypeError", `'${op}' not supported between instances of 'str' and '${pyTypeName(value)}'`);
  return (row) => {
    const v = row[column];
    return typeof v === "string" && (op === ">=" ? v >= value : v <= value);
  };
}

export function pyTypeName(x: unknown): string {
  if (x === null || x === undefined) return "NoneType";
  if (typeof x === "string") return "str";
  if (typeof x === "boolean") return "bool";
  if (typeof x === "number") return Number.isInteger(x) ? "int" : "float";
  return Array.isArray(x) ? "list" : "dict";
}

/** Python truthiness of a JSON value. */
export function truthy(x: unknown): boolean {
  if (x === null || x === undefined || x === false || x === 0 || x === "") return false;
  if (Array.isArray(x)) return x.length > 0;
  if (typeof x === "object") return Object.keys(x).length > 0;
  return true;
}

/** `value.lower()`: only strings have it. */
export function lower(x: unknown): string {
  if (typeof x !== "string") throw new PyException("AttributeError", `'${pyTypeName(x)}' object has no attribute 'lower'`);
  return x.toLowerCase();
}

/**
 * is_correct's comparison: every column but `keepCase` lowercased with `.str.lower()` (a non-string becomes NaN),
 * then `DataFrame.equals` (same labels in order, same cells, NaN equal to NaN).
 */
export function equalAfterLowercase(a: Table, b: Table, keepCase: readonly string[]): boolean {
  if (a.rows.length !== b.rows.length || a.columns.join("\u0000") !== b.columns.join("\u0000")) return false;
  if (a.labels.some((l, i) => l !== b.labels[i])) return false;
  const norm = (column: string, v: Cell): Cell => (keepCase.includes(column) ? v : typeof v === "string" ? v.toLowerCase() : null);
  return a.rows.every((row, i) =>
    a.columns.every((c) => {
      const x = norm(c, row[c]);
      const y = norm(c, b.rows[i]![c]);
      return (x === null && y === null) || cellEquals(x, y);
    }),
  );
}

/** `df.to_dict(orient="records")`: copies; NaN stays null (pydantic writes NaN as JSON null). */
export function records(rows: readonly Row[]): Row[] {
  return rows.map((r) => ({ ...r }));
}

/** `series.str.contains(pattern, case=False, na=False)`. */
export function containsMaskAllowingNa(column: string, pattern: unknown): (row: Row) => boolean {
  if (typeof pattern !== "string") throw new PyException("TypeError", "first argument must be string or compiled pattern");
  const re = pyCompile(pattern, { ignoreCase: true }).search;
  return (row) => {
    const v = row[column];
    return typeof v === "string" && re.test(v);
  };
}

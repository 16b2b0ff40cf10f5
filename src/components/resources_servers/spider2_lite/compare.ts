/**
 * Spider 2.0-Lite's result comparison (its official evaluate.py, as NeMo Gym ports it): every gold column (or each
 * of `condition_cols`) must equal some predicted column as a vector, after strings that parse as numbers become
 * numbers and NULL/NaN become 0; numbers compare with math.isclose(abs_tol=0.01); with `ignore_order` both vectors
 * are first sorted by str(). Extra predicted columns are allowed. With several gold sets, any one may match.
 */
import { pyParseBigInt, pyParseFloat } from "../_python/number.ts";
import type { SqlRow, SqlValue } from "../_sql/execute.ts";
import { compareCodePoints, pyStr } from "../_sql/values.ts";

type Value = Exclude<SqlValue, null>;

/** `_normalize(_coerce(v))`: numeric strings → int or float; None and NaN → 0. */
function normalized(v: SqlValue): Value {
  if (typeof v === "string") {
    const int = pyParseBigInt(v);
    if (int !== undefined) v = int;
    else {
      const float = pyParseFloat(v);
      if (float !== undefined) v = float;
    }
  }
  if (v === null || (typeof v === "number" && Number.isNaN(v))) return 0n;
  return v;
}

const isNumber = (x: Value): x is number | bigint => typeof x === "number" || typeof x === "bigint";

/** math.isclose(a, b, rel_tol=1e-9, abs_tol). */
function isClose(a: number, b: number, absTol: number): boolean {
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  const diff = Math.abs(b - a);
  return diff <= Math.abs(1e-9 * b) || diff <= Math.abs(1e-9 * a) || diff <= absTol;
}

function equalValues(x: Value, y: Value): boolean {
  if (typeof x === "string" || typeof y === "string") return x === y;
  if (x instanceof Uint8Array || y instanceof Uint8Array) return x instanceof Uint8Array && y instanceof Uint8Array && Buffer.from(x).equals(Buffer.from(y));
  return false;
}

/** Python's sort key `(x is None, str(x), isinstance(x, (int, float)))` (after normalising, never None). */
function sortedByStr(values: Value[]): Value[] {
  const keyed = values.map((value) => ({ value, text: pyStr(value), numeric: isNumber(value) }));
  keyed.sort((a, b) => compareCodePoints(a.text, b.text) || Number(a.numeric) - Number(b.numeric));
  return keyed.map((k) => k.value);
}

function vectorsMatch(v1: Value[], v2: Value[], absTol: number, ignoreOrder: boolean): boolean {
  if (v1.length !== v2.length) return false;
  const a = ignoreOrder ? sortedByStr(v1) : v1;
  const b = ignoreOrder ? sortedByStr(v2) : v2;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (isNumber(x) && isNumber(y)) {
      if (!isClose(Number(x), Number(y), absTol)) return false;
    } else if (!equalValues(x, y)) return false;
  }
  return true;
}

/** `row[i]` with Python's negative indexes; an index past the row raises IndexError (a failed verify). */
function cell(row: SqlRow, i: number): SqlValue {
  const j = i < 0 ? row.length + i : i;
  if (j < 0 || j >= row.length) throw new Error("IndexError: tuple index out of range");
  return row[j]!;
}

const column = (rows: SqlRow[], i: number) => rows.map((row) => normalized(cell(row, i)));

/** compare_result_sets: one gold set against the predicted rows. */
export function compareResultSets(gold: SqlRow[], pred: SqlRow[], conditionCols: number[] | null, ignoreOrder: boolean, absTol = 1e-2): boolean {
  if (gold.length === 0 && pred.length === 0) return true;
  if (gold.length === 0 || pred.length === 0) return false;
  const goldWidth = gold[0]!.length;
  const predWidth = pred[0]!.length;
  const valid = (conditionCols ?? []).filter((i) => i < goldWidth);
  const cols = valid.length > 0 ? valid : Array.from({ length: goldWidth }, (_, i) => i);
  const predVectors = Array.from({ length: predWidth }, (_, j) => column(pred, j));
  for (const i of cols) {
    const goldVector = column(gold, i);
    if (!predVectors.some((pv) => vectorsMatch(goldVector, pv, absTol, ignoreOrder))) return false;
  }
  return true;
}

/** compare_multi_result_sets: `condition_cols` is one list for every gold set, or one list per set (zip: extra sets unchecked). */
export function compareMultiResultSets(goldSets: SqlRow[][], pred: SqlRow[], multiConditionCols: unknown, ignoreOrder: boolean, absTol = 1e-2): boolean {
  if (goldSets.length === 0) return false;
  let perSet: number[][];
  const cols = Array.isArray(multiConditionCols) ? multiConditionCols : [];
  if (cols.length === 0) perSet = goldSets.map(() => []);
  else if (!cols.every((c) => Array.isArray(c))) perSet = goldSets.map(() => [...(cols as number[])]);
  else perSet = (cols as number[][]).map((c) => [...c]);
  const n = Math.min(goldSets.length, perSet.length);
  for (let k = 0; k < n; k++) if (compareResultSets(goldSets[k]!, pred, perSet[k]!, ignoreOrder, absTol)) return true;
  return false;
}

/** What the search tools answer: pages of records; `str()` of a cell for the paths and subjects tools build. */
import { PyException } from "../../_python/errors.ts";
import { records, type Row } from "../table.ts";

/** str(x) for a cell: NaN prints as `nan`. */
export function pyStr(x: unknown): string {
  if (x === null || x === undefined) return "nan";
  if (x === true) return "True";
  if (x === false) return "False";
  if (typeof x === "number") return String(x);
  return typeof x === "string" ? x : JSON.stringify(x);
}

/** The shared page arithmetic of the search tools (page clamped to 1..total_pages). */
export function paginate(rows: Row[], page: unknown, pageSize: unknown, key: string, totalKey: string): Row {
  if (typeof page !== "number" || typeof pageSize !== "number") throw new PyException("TypeError", "'<' not supported between instances of 'str' and 'int'");
  const total = rows.length;
  const totalPages = Math.floor((total + pageSize - 1) / pageSize);
  const p = totalPages > 0 ? Math.max(1, Math.min(page, totalPages)) : 1;
  const start = (p - 1) * pageSize;
  return { [key]: records(rows.slice(start, Math.min(start + pageSize, total))), pagination: { [totalKey]: total, page: p, page_size: pageSize, total_pages: totalPages } };
}

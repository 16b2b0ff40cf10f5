/** `pd.Timestamp(value)` for the values tools receive: ISO-like dates and times (naive), or a number of nanoseconds. */
import { PyException } from "../../_python/errors.ts";
import { pyTypeName } from "../table.ts";

const ISO = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ](\d{1,2})(?::(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?)?$/;

/** Milliseconds since the epoch of the naive time; ValueError for text pandas would refuse (see README: known differences). */
export function timestamp(value: unknown): number {
  if (typeof value === "number" && Number.isFinite(value)) return value / 1e6;
  if (typeof value !== "string") throw new PyException("TypeError", `Cannot convert input [${String(value)}] of type <class '${pyTypeName(value)}'> to Timestamp`);
  const m = ISO.exec(value.trim());
  if (m) {
    const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number];
    const ms = Date.UTC(y, mo - 1, d, h, mi, s) + Number(`0.${m[7] ?? "0"}`) * 1000;
    const back = new Date(ms);
    if (back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d && h < 24 && mi < 60 && s < 60) return ms;
  }
  throw new PyException("ValueError", `could not convert string to Timestamp`);
}

/** `pd.Timestamp(value).date()` as a comparable day number. */
export function day(value: unknown): number {
  return Math.floor(timestamp(value) / 86_400_000);
}

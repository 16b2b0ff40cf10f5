/** Collate's metrics files: the document (config ∪ metrics), NeMo Gym's tolerant comparison with an existing file. */
import { existsSync, readFileSync } from "node:fs";
import { writeFileAtomic } from "../runtime/files.ts";
import type { FixedMetrics, OtherSummary } from "./dataset-metrics.ts";
import { parsePythonJson, PyFloat, stringifyPython } from "../metrics/pyjson.ts";

export type MetricsDocument = Record<string, unknown>;

/** The dataset config dumped first, then the metrics; a metric key equal to a config key replaces it in place (dict union). */
export function metricsDocument(config: Record<string, unknown>, fixed: FixedMetrics, other: Iterable<[string, OtherSummary]>): MetricsDocument {
  const doc: MetricsDocument = { ...config };
  for (const [key, value] of Object.entries(fixed.summary())) doc[key] = value;
  for (const [key, value] of other) doc[key] = value;
  return doc;
}

/** Exactly the bytes Python's `json.dump(doc, f, indent=4)` writes (no trailing newline). */
export function metricsText(doc: MetricsDocument): string {
  return stringifyPython(doc, { indent: 4, ensureAscii: true });
}

/**
 * NeMo Gym's conflict check: every key of the previous file must still exist (new keys are fine), float
 * pairs may differ by 5e-3 (≥ 1) or 5e-4, lists compare as multisets, anything else must be equal.
 * Returns the differences, empty when the previous file still holds.
 */
export function metricsDifferences(previous: unknown, next: unknown, path = ""): string[] {
  const diffs: string[] = [];
  const walk = (prev: unknown, cur: unknown, at: string) => {
    if (isDict(prev) && isDict(cur)) {
      for (const key of Object.keys(prev)) {
        const sub = at ? `${at}.${key}` : key;
        if (!(key in cur)) diffs.push(`Missing key in new metrics: ${sub}`);
        else walk(prev[key], cur[key], sub);
      }
      return;
    }
    if (Array.isArray(prev) && Array.isArray(cur)) {
      if (prev.length !== cur.length) return void diffs.push(`List length differs at ${at}: ${prev.length} != ${cur.length}`);
      const used = new Set<number>();
      prev.forEach((p, i) => {
        const j = cur.findIndex((c, k) => !used.has(k) && metricsDifferences(p, c).length === 0);
        if (j === -1) diffs.push(`No matching element for ${at}[${i}] in new metrics (unordered)`);
        else used.add(j);
      });
      return;
    }
    if (isFloat(prev) && isFloat(cur)) {
      if (!numericClose(Number(prev), Number(cur))) diffs.push(`Numeric mismatch at ${at}: ${show(prev)} != ${show(cur)}`);
      return;
    }
    if (!pythonEqual(prev, cur)) diffs.push(`Value differs at ${at}: ${show(prev)} != ${show(cur)}`);
  };
  walk(previous, next, path);
  return diffs;
}

/** Outcome of writing one metrics file beside its data or in the output folder. */
export type MetricsWrite = { status: "written" | "unchanged" | "conflict" | "overwritten"; path: string; conflictPath?: string; differences: string[] };

/**
 * Writes `doc` to `path` unless an existing file conflicts (then `<stem>_conflict.json` gets the new
 * document and the old file stays, unless `overwrite`). `skipWhenUnchanged` is NeMo Gym's per-dataset
 * rule: a matching file is left alone; per-type files are always rewritten.
 */
export function writeMetricsFile(path: string, doc: MetricsDocument, options: { overwrite: boolean; skipWhenUnchanged: boolean }): MetricsWrite {
  let differences: string[] = [];
  if (existsSync(path)) {
    differences = metricsDifferences(parsePythonJson(readFileSync(path, "utf8")), doc);
    if (differences.length > 0) {
      const conflictPath = path.replace(/\.json$/, "_conflict.json");
      writeFileAtomic(conflictPath, metricsText(doc));
      if (!options.overwrite) return { status: "conflict", path, conflictPath, differences };
      writeFileAtomic(path, metricsText(doc));
      return { status: "overwritten", path, conflictPath, differences };
    }
    if (options.skipWhenUnchanged) return { status: "unchanged", path, differences };
  }
  writeFileAtomic(path, metricsText(doc));
  return { status: "written", path, differences };
}

function numericClose(a: number, b: number): boolean {
  if (a === b) return true;
  const tolerance = Math.max(Math.abs(a), Math.abs(b)) >= 1 ? 5e-3 : 5e-4;
  return Math.abs(a - b) <= Math.max(tolerance, 1e-9);
}

/** Python `==` on parsed JSON: 1 == 1.0, True == 1, dicts by key set and values. */
function pythonEqual(a: unknown, b: unknown): boolean {
  const num = (v: unknown) => (v instanceof PyFloat ? v.value : typeof v === "boolean" ? Number(v) : v);
  const x = num(a);
  const y = num(b);
  if (typeof x === "number" && typeof y === "number") return x === y;
  if (isDict(x) && isDict(y)) {
    const keys = Object.keys(x);
    return keys.length === Object.keys(y).length && keys.every((k) => k in y && pythonEqual(x[k], y[k]));
  }
  if (Array.isArray(x) && Array.isArray(y)) return x.length === y.length && x.every((v, i) => pythonEqual(v, y[i]));
  return x === y;
}

/** Python holds it as a float: a PyFloat (whole-valued float) or any fractional number. */
function isFloat(v: unknown): boolean {
  return v instanceof PyFloat || (typeof v === "number" && !Number.isInteger(v));
}

function isDict(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof PyFloat);
}

function show(v: unknown): string {
  return v instanceof PyFloat ? String(v.value) : JSON.stringify(v);
}

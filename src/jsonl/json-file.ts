/**
 * Whole JSON documents (metrics, status, sources files) read the way NeMo Gym's Python readers take them:
 * strict UTF-8 (a bad byte names its offset), a BOM and CRLF accepted, and Python's `NaN` / `Infinity` /
 * `-Infinity` tokens read as floats. A syntax error names file:line:column.
 */
import * as fs from "node:fs";
import { GymError } from "../errors.ts";
import { parsePythonJson } from "../metrics/pyjson.ts";
import { fileError } from "../runtime/files.ts";
import { decodeUtf8 } from "../text/utf8.ts";
import { locateJsonError } from "./json-error.ts";

const NON_FINITE = /(?:-?Infinity|NaN)/;
const SENTINEL = "@@gym-non-finite@@:";

/** Reads and parses `file` (`what` names it in messages, e.g. "--baseline-agg-metrics"). */
export function readJsonFile(file: string, what?: string): unknown {
  let bytes: Uint8Array;
  try {
    bytes = fs.readFileSync(file === "-" ? 0 : file);
  } catch (error) {
    throw fileError(file, error);
  }
  const shown = file === "-" ? "<stdin>" : file;
  const text = decodeUtf8(bytes, shown);
  if (text.trim() === "") throw new GymError("E_INPUT_EMPTY", `${shown}${what ? ` (${what})` : ""} is empty: a JSON document was expected.`, { hint: "Pass the file the run wrote (e.g. <stem>_aggregate_metrics.json); nothing was written." });
  return parseJsonText(text, shown);
}

/** Parses one JSON document with Python's non-finite tokens; errors name `shown`:line:column. */
export function parseJsonText(text: string, shown: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return parsePythonJson(body);
  } catch {
    if (NON_FINITE.test(body)) {
      const swapped = swapNonFinite(body);
      if (swapped !== undefined) {
        try {
          return restore(parsePythonJson(swapped));
        } catch {}
      }
    }
    const problem = locateJsonError(body) ?? { column: 1, message: "invalid JSON" };
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < problem.column - 1 && i < body.length; i++) if (body.charCodeAt(i) === 10) (line++, (lineStart = i + 1));
    throw new GymError("E_INPUT_JSON", `${shown}:${line}:${problem.column - lineStart}: invalid JSON: ${problem.message}`, { hint: "Fix the file, or regenerate it with the command that wrote it." });
  }
}

/** One JSON text with Python's `NaN` / `Infinity` / `-Infinity` tokens read as numbers; undefined when it is not JSON even so. */
export function parseNonFinite(text: string): unknown {
  if (!NON_FINITE.test(text)) return undefined;
  const swapped = swapNonFinite(text);
  if (swapped === undefined) return undefined;
  try {
    return restore(parsePythonJson(swapped));
  } catch {
    return undefined;
  }
}

/** The text with every bare NaN/Infinity token (outside strings) turned into a sentinel string, or undefined if none. */
function swapNonFinite(text: string): string | undefined {
  let out = "";
  let last = 0;
  let found = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      continue;
    }
    const m = /^(-?Infinity|NaN)/.exec(text.slice(i, i + 9));
    if (m && (c === "N" || c === "I" || c === "-")) {
      out += `${text.slice(last, i)}"${SENTINEL}${m[1]}"`;
      i += m[1]!.length - 1;
      last = i + 1;
      found = true;
    }
  }
  return found ? out + text.slice(last) : undefined;
}

function restore(value: unknown): unknown {
  if (typeof value === "string" && value.startsWith(SENTINEL)) {
    const token = value.slice(SENTINEL.length);
    return token === "NaN" ? Number.NaN : token === "-Infinity" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (Array.isArray(value)) return value.map(restore);
  if (value && typeof value === "object" && value.constructor === Object) {
    for (const [k, v] of Object.entries(value)) (value as Record<string, unknown>)[k] = restore(v);
  }
  return value;
}


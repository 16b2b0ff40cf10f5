/** JSON answers of resources servers: Python float typing (`1.0`) for computed fields, a fast path for big echoed objects. */
import type { Context } from "hono";
import { parsePythonJson, stringifyPython } from "../../metrics/pyjson.ts";
import type { GymEnv } from "../gym-app.ts";

// Echoed Responses objects were parsed with JSON.parse (no PyFloat inside), so JSON.stringify prints them as is.
const PLAIN_KEYS = new Set(["responses_create_params", "response"]);

/**
 * Compact JSON like FastAPI's: PyFloat values (a verifier's float outputs such as `reward`) print as `1.0`;
 * the echoed `responses_create_params`/`response` take the fast native path.
 */
export function pyJsonText(value: Record<string, unknown>): string {
  let out = "{";
  let first = true;
  for (const key in value) {
    const v = value[key];
    if (v === undefined) continue;
    out += `${first ? "" : ","}${JSON.stringify(key)}:${PLAIN_KEYS.has(key) ? JSON.stringify(v) : stringifyPython(v)}`;
    first = false;
  }
  return `${out}}`;
}

/** A 200 JSON answer built with `pyJsonText`. */
export function pyJson(c: Context<GymEnv>, value: Record<string, unknown>): Response {
  return c.body(pyJsonText(value), 200, { "content-type": "application/json" });
}

/** Parses a body keeping whole-valued floats (`1.0`) apart from ints, as the metrics need. */
export function parsePyBody(text: string): unknown {
  return parsePythonJson(text);
}

/**
 * math_with_code's scoring, as NeMo Gym's app.py does it: the last `\boxed{…}` (brace depth counted) of the last
 * assistant message that has one, else of the last tool output whose stdout has one; compared to `expected_result`
 * after stripping `\( \)`, `$ $` and `\text{ }` wrappers and collapsing whitespace, with a float fallback
 * (relative 1e-6). Python's str semantics where they differ from JavaScript's (whitespace, float()).
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { pyParseFloat } from "../_python/number.ts";
import { pyCollapseSpace, pyStrip } from "../_python/text.ts";
import { pyJsonLoads } from "../_python/values.ts";

const MARKER = "\\boxed{";

/** The content of the last `\boxed{…}`, stripped; null when there is none, it is unclosed, or it is empty. */
export function extractBoxedAnswer(text: string): string | null {
  const at = text.lastIndexOf(MARKER);
  if (at < 0) return null;
  const start = at + MARKER.length;
  let depth = 1;
  let i = start;
  for (; i < text.length && depth > 0; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}") depth--;
  }
  if (depth !== 0) return null;
  const inner = pyStrip(text.slice(start, i - 1));
  return inner || null;
}

/** The wrappers expected answers carry and boxed answers do not, removed; whitespace collapsed. */
export function normalizeAnswer(answer: string): string {
  let s = pyStrip(answer);
  if (s.startsWith("\\(") && s.endsWith("\\)")) s = pyStrip(s.slice(2, -2));
  if (s.startsWith("$") && s.endsWith("$") && s.length > 1) s = pyStrip(s.slice(1, -1));
  if (s.startsWith("\\text{") && s.endsWith("}")) s = pyStrip(s.slice(6, -1));
  return pyCollapseSpace(s);
}

export function answersMatch(actual: string | null, expected: string): boolean {
  if (actual === null) return false;
  const a = normalizeAnswer(actual);
  const e = normalizeAnswer(expected);
  if (a === e) return true;
  const fa = pyParseFloat(a);
  const fe = pyParseFloat(e);
  return fa !== undefined && fe !== undefined && Math.abs(fa - fe) < 1e-6 * Math.max(1.0, Math.abs(fe));
}

/** A tool output's stdout: the `stdout` of its JSON object, else the whole output text. */
function toolStdout(output: string): string {
  let parsed: unknown;
  try {
    parsed = pyJsonLoads(output);
  } catch {
    return output;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return output;
  const stdout = (parsed as JsonObject).stdout ?? "";
  // NeMo Gym raises (an HTTP 500) when `stdout` is present but not a string: so does this.
  if (typeof stdout !== "string") throw new TypeError(`a function_call_output's stdout is ${JSON.stringify(stdout)}, not a string`);
  return stdout;
}

/** The answer the rollout gives: from the assistant's messages, newest first, else from the tool outputs' stdout. */
export function rolloutAnswer(output: JsonObject[]): string | null {
  for (let i = output.length - 1; i >= 0; i--) {
    const item = output[i]!;
    if (item.type !== "message" || item.role !== "assistant") continue;
    const text = ((item.content as JsonObject[] | undefined) ?? []).filter((c) => c.type === "output_text").map((c) => String(c.text)).join("");
    const answer = extractBoxedAnswer(text);
    if (answer !== null) return answer;
  }
  for (let i = output.length - 1; i >= 0; i--) {
    const item = output[i]!;
    if (item.type !== "function_call_output") continue;
    const answer = extractBoxedAnswer(toolStdout(String(item.output)));
    if (answer !== null) return answer;
  }
  return null;
}

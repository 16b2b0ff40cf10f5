/**
 * RAGTruth's verdict as NeMo Gym's ragtruth app.py reads it: thinking blocks stripped (a configurable tag), a JSON
 * fence peeled, the rest parsed as one JSON object whose non-empty `"hallucination list"` means "hallucinated".
 */
import { parsePythonJson } from "../../../metrics/pyjson.ts";
import { pyCompile, type PyPattern } from "../_python/re.ts";
import { pyStrip } from "../_python/text.ts";
import { pyJsonLoads } from "../_python/values.ts";

/** Python's `re.escape` (3.7+): the regex metacharacters and whitespace get a backslash. */
const reEscape = (s: string) => s.replace(/[()[\]{}?*+\-|^$\\.&~# \t\n\r\v\f]/g, "\\$&");

const thinkPatterns = new Map<string, [PyPattern, PyPattern, PyPattern]>();
function thinkRes(tag: string): [PyPattern, PyPattern, PyPattern] {
  let res = thinkPatterns.get(tag);
  if (!res) {
    const t = reEscape(tag);
    res = [pyCompile(`<${t}>.*?</${t}>`, { dotAll: true, ignoreCase: true }), pyCompile(`.*</${t}>\\s*`, { dotAll: true, ignoreCase: true }), pyCompile(`<${t}>\\s*`, { ignoreCase: true })];
    thinkPatterns.set(tag, res);
  }
  return res;
}

/** Paired `<tag>…</tag>` blocks removed, then everything up to an orphan close tag, then orphan open tags; stripped. */
export function stripThink(text: string, tag = "think"): string {
  if (!text) return "";
  const [pair, orphanClose, orphanOpen] = thinkRes(tag);
  return pyStrip(text.replace(pair.global, "").replace(orphanClose.global, "").replace(orphanOpen.global, ""));
}

const FENCE_WHOLE = pyCompile("^```(?:json)?\\s*\\r?\\n?(.*)\\r?\\n?```\\s*$", { dotAll: true, ignoreCase: true });
const FENCE_INNER = pyCompile("```(?:json)?\\s*\\r?\\n?(.*?)```", { dotAll: true, ignoreCase: true });

/** A whole-text ``` fence's body, else the first inner fence's (when not blank), else the stripped text. */
export function stripJsonFence(text: string): string {
  if (!text || !text.includes("```")) return text;
  const s = pyStrip(text);
  const whole = FENCE_WHOLE.match.exec(s);
  if (whole) return pyStrip(whole[1]!);
  const inner = FENCE_INNER.search.exec(s);
  if (inner && pyStrip(inner[1]!)) return pyStrip(inner[1]!);
  return s;
}

/** The reply as a JSON object, or null (empty, not JSON, or not an object). */
export function parseVerdict(raw: string, thinkTag = "think"): Record<string, unknown> | null {
  const cleaned = stripJsonFence(stripThink(raw, thinkTag));
  if (!cleaned) return null;
  let parsed: unknown;
  try {
    parsed = parsePythonJson(cleaned);
  } catch {
    try {
      parsed = pyJsonLoads(cleaned); // json.loads also takes NaN / Infinity
    } catch {
      return null;
    }
  }
  return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) && parsed.constructor === Object ? (parsed as Record<string, unknown>) : null;
}

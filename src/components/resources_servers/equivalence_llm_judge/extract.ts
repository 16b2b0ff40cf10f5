/** equivalence_llm_judge's text extraction: the last assistant message (or a regex's last match in it), the question, the expected answer. */
import type { JsonObject } from "../../../protocol/responses.ts";
import { pyCompile, pyFinditer } from "../_python/re.ts";
import { pyStrip } from "../_python/text.ts";

/**
 * The last match of `pattern` (MULTILINE | DOTALL) in `text`: its first non-blank group stripped, else the whole
 * match stripped; undefined when nothing matches or the pattern is not a valid Python regex (re.error → no match).
 */
export function lastMatch(pattern: string, text: string): string | undefined {
  let compiled;
  try {
    compiled = pyCompile(pattern, { multiline: true, dotAll: true });
  } catch (error) {
    if ((error as Error).name === "PyRegexUnsupported") throw error;
    return undefined;
  }
  let last: RegExpExecArray | undefined;
  for (const m of pyFinditer(compiled, text)) last = m;
  if (!last) return undefined;
  for (let i = 1; i <= compiled.groups; i++) {
    const group = last[i];
    if (typeof group === "string" && pyStrip(group) !== "") return pyStrip(group);
  }
  return pyStrip(last[0]);
}

/**
 * The text of the last assistant message (list parts' texts joined by "\n", stripped), through `regex` when
 * given; `failure` when that message (or any assistant message) has no text. Only the last assistant message
 * counts: an empty one does not fall back to an earlier one.
 */
export function lastAssistantAnswer(response: JsonObject, regex: string | null | undefined, failure: string): string {
  const output = Array.isArray(response.output) ? (response.output as JsonObject[]) : [];
  for (let i = output.length - 1; i >= 0; i--) {
    const item = output[i]!;
    if (item.type !== "message" || item.role !== "assistant") continue;
    let text: string;
    if (Array.isArray(item.content)) {
      const texts: string[] = [];
      for (const part of item.content as JsonObject[]) if (typeof part?.text === "string") texts.push(part.text);
      text = pyStrip(texts.join("\n"));
    } else if (typeof item.content === "string") text = pyStrip(item.content);
    else break;
    if (!text) return failure;
    return (regex ? lastMatch(regex, text) : undefined) ?? text;
  }
  return failure;
}

/** The last user message's text (list contents' text parts joined by "\n"), stripped, through `regex` when given. */
export function questionText(params: JsonObject, regex: string | null | undefined): string {
  let last: string | undefined;
  const input = Array.isArray(params.input) ? (params.input as JsonObject[]) : [];
  for (const m of input) {
    if (m?.role !== "user") continue;
    if (typeof m.content === "string") last = m.content;
    else if (Array.isArray(m.content)) {
      const texts: string[] = [];
      for (const part of m.content as JsonObject[]) if (typeof part?.text === "string") texts.push(part.text);
      if (texts.length) last = texts.join("\n");
    }
  }
  const text = pyStrip(last ?? "");
  if (!text || !regex) return text;
  return lastMatch(regex, text) ?? text;
}

/** `expected_answer` when truthy, else `metadata.expected_answer` as str(), else undefined. */
export function expectedAnswer(body: JsonObject): string | undefined {
  if (body.expected_answer) return String(body.expected_answer);
  const md = (body.metadata as JsonObject | null) ?? {};
  const value = md.expected_answer;
  return value !== null && value !== undefined ? pyStr(value) : undefined;
}

/** str() of a JSON value as Python prints it, for the common scalar cases. */
function pyStr(value: unknown): string {
  if (typeof value === "boolean") return value ? "True" : "False";
  return typeof value === "string" ? value : JSON.stringify(value);
}

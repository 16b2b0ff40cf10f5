/**
 * swerl_llm_judge: SWE-style multiple choice where the policy acts as the judge (NeMo Gym's `swerl_llm_judge`, no
 * judge call): the letter in the policy's last `<solution>…</solution>` block must be one of the row's option
 * letters and an expected answer. Lenient mode takes the first standalone letter of the block, strict mode only a
 * block that is one (optionally bracketed) letter.
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { pyCompile, pyFinditer } from "../_python/re.ts";
import { pyIsAlphaChar, pyStrip } from "../_python/text.ts";

const isAlpha = (s: string) => s !== "" && Array.from(s).every(pyIsAlphaChar);

/** Every assistant message's text (parts or a string content), joined by "\n", stripped. */
export function assistantText(response: JsonObject): string {
  const texts: string[] = [];
  for (const item of (Array.isArray(response.output) ? response.output : []) as JsonObject[]) {
    if (item?.type !== "message" || item.role !== "assistant") continue;
    if (Array.isArray(item.content)) for (const c of item.content as JsonObject[]) typeof c?.text === "string" && texts.push(c.text);
    else if (typeof item.content === "string") texts.push(item.content);
  }
  return pyStrip(texts.join("\n"));
}

/** The expected letters: strings only, stripped and upper-cased, single letters, first occurrence kept. */
export function expectedLetters(expected: unknown): string[] {
  const raw = typeof expected === "string" ? [expected] : Array.isArray(expected) ? expected.filter((x): x is string => typeof x === "string") : [];
  const out: string[] = [];
  for (const x of raw) {
    const s = pyStrip(x).toUpperCase();
    if (Array.from(s).length !== 1 || !isAlpha(s) || out.includes(s)) continue;
    out.push(s);
  }
  return out;
}

/** The option letters: each option's first key, when it is one letter. */
export function optionLetters(options: unknown): Set<string> {
  const letters = new Set<string>();
  for (const entry of (Array.isArray(options) ? options : []) as JsonObject[]) {
    const key = Object.keys(entry ?? {})[0];
    if (key !== undefined && Array.from(key).length === 1 && isAlpha(key)) letters.add(key.toUpperCase());
  }
  return letters;
}

const LENIENT = () => pyCompile(String.raw`<solution>\s*(.*?)\s*</solution>`, { dotAll: true, ignoreCase: true });
const STRICT = () => pyCompile(String.raw`<solution>\s*\[?([A-Za-z])\]?\s*</solution>`, { multiline: true });

/** Lenient: the last solution block's first letter that stands alone (not inside a word), if it is an option letter. */
export function lenientChoice(text: string, allowed: Set<string>): string | null {
  let last: RegExpExecArray | undefined;
  for (const m of pyFinditer(LENIENT(), text)) last = m;
  if (!last) return null;
  const chars = Array.from(pyStrip(last[1] ?? ""));
  for (let i = 0; i < chars.length; i++) {
    if (!pyIsAlphaChar(chars[i]!)) continue;
    const left = i > 0 ? chars[i - 1]! : undefined;
    const right = i < chars.length - 1 ? chars[i + 1]! : undefined;
    if ((left === undefined || !pyIsAlphaChar(left)) && (right === undefined || !pyIsAlphaChar(right))) {
      const up = chars[i]!.toUpperCase();
      return allowed.has(up) ? up : null;
    }
  }
  return null;
}

/** Strict: the first solution block that is a single (bracketed) ASCII letter, if it is an option letter. */
export function strictChoice(text: string, allowed: Set<string>): string | null {
  const m = STRICT().search.exec(text);
  if (!m) return null;
  const up = m[1]!.toUpperCase();
  return allowed.has(up) ? up : null;
}

export default defineResourcesServer({
  name: "swerl_llm_judge",
  className: "SWEJudgeResourcesServer",
  verify: {
    request: {
      fields: {
        instance_id: py.optional(py.str()),
        dataset_name: py.optional(py.str()),
        dataset_split: py.optional(py.str()),
        expected_answer: py.optional(py.any()),
        options: py.optional(py.list(py.dictOf(py.str()))),
        metadata: py.optional(py.dict()),
        grading_mode: py.withDefault(py.literal(["lenient", "strict"]), () => "lenient"),
      },
    },
    response: ["expected_answer", "extracted_answer"],
    handler(body) {
      const text = assistantText(body.response as JsonObject);
      const allowed = optionLetters(body.options);
      const choice = body.grading_mode === "strict" ? strictChoice(text, allowed) : lenientChoice(text, allowed);
      const golds = expectedLetters(body.expected_answer).filter((g) => allowed.size === 0 || allowed.has(g));
      return { reward: choice !== null && golds.includes(choice) ? 1 : 0, expected_answer: golds.length === 1 ? golds[0]! : golds, extracted_answer: choice };
    },
  },
});

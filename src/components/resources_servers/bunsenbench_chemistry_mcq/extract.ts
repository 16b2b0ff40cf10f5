/**
 * BunsenBench's answer reading, as NeMo Gym's bunsenbench_chemistry_mcq app.py: candidates from `<choice>`-style tags
 * (not those inside `<choices>`), `\boxed{…}`, "Answer:" lines and answer phrases, tried from the last one back; each
 * read as a letter or as an option's text (HTML-unescaped, NFKC, sub/superscripts and dashes folded).
 */
import { pyCompile, pyFinditer } from "../_python/re.ts";
import { pyCollapseSpace, pyIsAlphaChar, pyLen, pySplitlines, pyStrip } from "../_python/text.ts";
import { htmlUnescape } from "../_nlp/html-unescape.ts";

export type Options = Record<string, string>[];

const ANSWER_LINE = pyCompile(String.raw`(?im)^\s*(?:(?:[-*•]|\d+[.)])\s*)?(?:\*\*)?answer(?:\*\*)?\s*:\s*(.+?)\s*$`);
const INLINE_ANSWER = pyCompile(String.raw`(?is)(?:\*\*)?answer(?:\*\*)?\s*:\s*(.+?)(?=$|[\r\n])`);
const BOXED = pyCompile(String.raw`\\boxed\{\s*(.*?)\s*\}`, { dotAll: true });
const ANSWER_PHRASE = pyCompile(String.raw`(?is)(?:the\s+(?:correct\s+)?answer\s+is|my\s+answer\s+is|i\s+(?:choose|select))\s+(.+?)(?:\n|$)`);
const XML_ANSWER = pyCompile(String.raw`<\s*(answer|choice|response|final_answer|final-answer)\b[^>]*>\s*(.*?)\s*<\s*/\s*\1\s*>`, { ignoreCase: true, dotAll: true });
export const CHOICES_BLOCK = pyCompile(String.raw`<\s*choices\b[^>]*>.*?<\s*/\s*choices\s*>`, { ignoreCase: true, dotAll: true });
export const CHOICE_TAG = pyCompile(String.raw`<\s*choice\b[^>]*>\s*(.*?)\s*<\s*/\s*choice\s*>`, { ignoreCase: true, dotAll: true });
const BOXED_OPEN = pyCompile(String.raw`\\boxed\s*\{`);
const OPTION_WORD_LETTER = pyCompile(String.raw`(?i)(?:option|choice)\s+([A-Z])\s*[\)\].:]?`);
const LEADING_LETTER = pyCompile(String.raw`(?i)^([A-Z])[\)\].:](?:\s|$)`);
const LONE_LETTER = pyCompile(String.raw`[^A-Za-z]*([A-Za-z])[^A-Za-z]*`);
const TEXT_WRAPPER = pyCompile(String.raw`\\(?:text|mathrm|operatorname)\{\s*(.*?)\s*\}`, { dotAll: true });

const FOLD: Record<string, string> = {
  "₀": "0", "₁": "1", "₂": "2", "₃": "3", "₄": "4", "₅": "5", "₆": "6", "₇": "7", "₈": "8", "₉": "9",
  "⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9",
  "⁺": "+", "⁻": "-", "₊": "+", "₋": "-", "＋": "+", "−": "-", "–": "-", "—": "-", "‒": "-", "‑": "-",
  "×": "x", "✕": "x", "·": ".", "∙": ".", "⋅": ".", "•": ".", "µ": "u", "μ": "u", "⁄": "/", "∕": "/",
};
const FORMAT_CHAR = /\p{Cf}/u;

/** HTML-unescaped, NFKC, the chemistry folds, format characters dropped, whitespace collapsed. */
export function normalizeChemistryText(value: string): string {
  const folded = Array.from(htmlUnescape(value).normalize("NFKC"), (ch) => FOLD[ch] ?? ch).join("");
  return pyCollapseSpace(Array.from(folded).filter((ch) => !FORMAT_CHAR.test(ch)).join(""));
}

/** Python's `str.strip(chars)`. */
const stripChars = (s: string, chars: string) => pyStrip(s, chars);
const WRAP_CHARS = " \t\r\n`*_\"'";

/** Quotes, stars, `\boxed{}`, `\text{}` and bracket pairs peeled off a candidate. */
export function stripWrappers(candidate: string): string {
  let c = stripChars(candidate, WRAP_CHARS);
  const boxed = BOXED.fullmatch.exec(c);
  if (boxed) c = pyStrip(boxed[1]!);
  for (let m = TEXT_WRAPPER.fullmatch.exec(c); m; m = TEXT_WRAPPER.fullmatch.exec(c)) c = pyStrip(m[1]!);
  while (pyLen(c) >= 2 && "([{\"'<".includes(c[0]!) && ")]}\"'>".includes(c.at(-1)!)) c = stripChars(c.slice(1, -1), WRAP_CHARS);
  return stripChars(c, `${WRAP_CHARS}.;,`);
}

function answerLetter(candidate: string, allowed: Set<string>): string | null {
  if (pyLen(candidate) === 1 && pyIsAlphaChar(candidate)) {
    const letter = candidate.toUpperCase();
    return allowed.has(letter) ? letter : null;
  }
  for (const m of [OPTION_WORD_LETTER.fullmatch.exec(candidate), LEADING_LETTER.match.exec(candidate), LONE_LETTER.fullmatch.exec(candidate)]) {
    if (m && allowed.has(m[1]!.toUpperCase())) return m[1]!.toUpperCase();
  }
  return null;
}

function optionText(candidate: string, options: Options, allowed: Set<string>): string | null {
  const norm = normalizeChemistryText(candidate);
  for (const entry of options) {
    for (const [letter, text] of Object.entries(entry)) if (allowed.has(letter.toUpperCase()) && normalizeChemistryText(String(text)) === norm) return letter.toUpperCase();
  }
  return null;
}

/** A candidate as a letter or an option's text, before and after its wrappers are peeled. */
export function parseCandidate(raw: string, options: Options, allowed: Set<string>): string | null {
  let candidate = pyStrip(raw);
  if (!candidate) return null;
  const direct = answerLetter(candidate, allowed) ?? optionText(candidate, options, allowed);
  if (direct !== null) return direct;
  candidate = stripWrappers(candidate);
  if (!candidate) return null;
  return answerLetter(candidate, allowed) ?? optionText(candidate, options, allowed);
}

const insideAny = (at: number, spans: [number, number][]) => spans.some(([start, end]) => start <= at && at < end);
const spansOf = (text: string) => [...pyFinditer(CHOICES_BLOCK, text)].map((m) => [m.index, m.index + m[0].length] as [number, number]);

/** `\boxed{…}` contents with balanced braces (a backslash skips the next character), by start offset. */
function boxedMatches(text: string): [number, string][] {
  const out: [number, string][] = [];
  let from = 0;
  for (;;) {
    const m = BOXED_OPEN.search.exec(text.slice(from));
    if (!m) return out;
    const braceStart = from + m.index + m[0].length - 1;
    let depth = 1;
    let pos = braceStart + 1;
    while (pos < text.length && depth) {
      if (text[pos] === "\\") {
        pos += 2;
        continue;
      }
      if (text[pos] === "{") depth += 1;
      else if (text[pos] === "}") depth -= 1;
      pos += 1;
    }
    if (depth !== 0) return out;
    out.push([from + m.index, text.slice(braceStart + 1, pos - 1)]);
    from = pos;
  }
}

/** Every answer candidate with its start offset. */
function answerCandidates(text: string): [number, string][] {
  const spans = spansOf(text);
  const out: [number, string][] = [];
  for (const m of pyFinditer(XML_ANSWER, text)) {
    if (m[1]!.toLowerCase() === "choice" && insideAny(m.index, spans)) continue;
    out.push([m.index, m[2]!]);
  }
  out.push(...boxedMatches(text));
  for (const pattern of [ANSWER_LINE, INLINE_ANSWER, ANSWER_PHRASE]) for (const m of pyFinditer(pattern, text)) out.push([m.index, m[1]!]);
  return out;
}

// Python sorts the (offset, text) tuples in reverse: later offsets first, ties by the text, greater first.
const reverseTupleOrder = (a: [number, string], b: [number, string]) => b[0] - a[0] || (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0);

/** The letter the reply chose: the last parseable candidate, else its last or first non-empty line; null if none. */
export function extractBunsenAnswer(text: string, options: Options, allowed: Set<string>): string | null {
  for (const [, candidate] of answerCandidates(text).sort(reverseTupleOrder)) {
    const parsed = parseCandidate(candidate, options, allowed);
    if (parsed !== null) return parsed;
  }
  const lines = pySplitlines(text).map((l) => pyStrip(l)).filter(Boolean);
  if (lines.length === 0) return null;
  return parseCandidate(lines.at(-1)!, options, allowed) ?? parseCandidate(lines[0]!, options, allowed);
}

/** A `<choice>` tag outside any `<choices>` block. */
export function choiceTagPresent(text: string): boolean {
  const spans = spansOf(text);
  return [...pyFinditer(CHOICE_TAG, text)].some((m) => !insideAny(m.index, spans));
}

/** mcqa's answer-letter extraction: boxed letters, option text, "Answer:" lines and template regexes (verifiers.md §6.1). */
import { PyException } from "../_python/errors.ts";
import { pyCompile, pyFindall, pyFinditer, type PyPattern } from "../_python/re.ts";
import { pyCollapseSpace, pyIsAlphaChar, pyLen, pyStrip } from "../_python/text.ts";

/** `options` as the dataset gives them: one-key maps such as `{"A": "Karyotyping"}` (values may be null). */
export type Options = Record<string, string | null>[];

// The pattern constants are Python regexes run through the translator, so \s, \b and `.` keep Python's meaning.
const CHOICE_LETTER = pyCompile(String.raw`(?<![A-Za-z])([A-Za-z])(?![A-Za-z])`);
const BOXED_LETTER_ONLY = pyCompile(String.raw`^[^A-Za-z]*([A-Z])[^A-Za-z]*$`);
const BOXED_LETTER_LABEL = pyCompile(String.raw`^\s*([A-Z])\s*[:).\-]`);
const ANSWER_COLON = pyCompile(String.raw`(?i)answer\s*:\s*(.+)`);
const ANSWER_COLON_PAYLOAD = pyCompile(String.raw`(?im)[*_]{0,2}Answer[*_]{0,2}\s*:[*_\s]{0,2}(.+)`);
const LATEX_TEXT_WRAP = pyCompile(String.raw`\\text\{\s*(.*?)\s*\}`, { dotAll: true });
const LEADING_CHOICE_LETTER = pyCompile(String.raw`^([a-zA-Z])(?![a-zA-Z0-9])`);
const LAST_STANDALONE_CHOICE_LETTER = pyCompile(String.raw`\b[A-Z]\b(?!.*\b[A-Z]\b)`, { dotAll: true });
const CHOICE_LIST_SEPARATOR = pyCompile(String.raw`(?:\s*[/|&,;]\s*|\s+(?:or|and)\s+|\s+)`, { ignoreCase: true });

/** Upper-cased single-letter option keys whose value is not null. */
export function allowedLetters(options: Options | null): Set<string> {
  const letters = new Set<string>();
  for (const entry of options ?? []) {
    for (const [k, v] of Object.entries(entry)) if (pyLen(k) === 1 && pyIsAlphaChar(k) && v !== null) letters.add(k.toUpperCase());
  }
  return letters;
}

/** Everything inside the LAST `\boxed{…}` (brace-balanced), or null; earlier boxes are never tried. */
export function boxedInner(text: string): string | null {
  const marker = "\\boxed{";
  const start = text.lastIndexOf(marker);
  if (start === -1) return null;
  let depth = 1;
  for (let i = start + marker.length; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 123) depth++;
    else if (ch === 125 && --depth === 0) return text.slice(start + marker.length, i);
  }
  return null;
}

/** Peels whole-string `\text{…}` wrappers, any number of them. */
export function stripLatexWrappers(s: string): string {
  for (;;) {
    const m = LATEX_TEXT_WRAP.fullmatch.exec(s);
    if (!m) return s;
    s = m[1]!;
  }
}

/** Lower-case and collapse whitespace (Python `" ".join(s.lower().split())`); None → AttributeError as in Python. */
export function normalizeForMatch(s: string | null): string {
  if (s === null) throw new PyException("AttributeError", "'NoneType' object has no attribute 'lower'");
  return pyCollapseSpace(s.toLowerCase());
}

const LOCALIZED: [string, string][] = [
  ["أ", " A"], ["ب", " B"], ["ج", " C"], ["د", " D"],
  ["অ", " A"], ["ব", " B"], ["ড", " C"], ["ঢ", " D"],
  ["Ａ", " A"], ["Ｂ", " B"], ["Ｃ", " C"], ["Ｄ", " D"],
];

/** Arabic, Bengali and full-width option letters → " A".." D", then strip. */
export function normalizeExtractedAnswer(text: string): string {
  for (const [from, to] of LOCALIZED) if (text.includes(from)) text = text.replaceAll(from, to);
  return pyStrip(text);
}

/** strict_single_letter_boxed: a lone upper-case letter in the last box, or a leading "E: …" label. */
export function strictBoxedLetter(text: string, allowed: Set<string>): string | null {
  const inner = boxedInner(text);
  if (inner === null) return null;
  const s = stripLatexWrappers(pyStrip(inner));
  const m = BOXED_LETTER_ONLY.match.exec(s) ?? BOXED_LETTER_LABEL.match.exec(s);
  const letter = m ? m[1]!.toUpperCase() : null;
  return letter !== null && allowed.has(letter) ? letter : null;
}

function optionPairs(options: Options | null, allowed: Set<string>, requireSingleKey: boolean): [string, string | null][] {
  const pairs: [string, string | null][] = [];
  for (const entry of options ?? []) {
    for (const [k, v] of Object.entries(entry)) {
      if (requireSingleKey && (v === null || pyLen(k) !== 1)) continue;
      if (allowed.has(k.toUpperCase())) pairs.push([k.toUpperCase(), v]);
    }
  }
  return pairs;
}

/** lenient_boxed fallback: exactly one option text contained in the (normalised) last box content. */
export function matchOptionText(text: string, options: Options | null, allowed: Set<string>): string | null {
  const raw = boxedInner(text);
  if (raw === null) return null;
  const inner = pyStrip(raw);
  const candidates = [inner, stripLatexWrappers(inner)].map(normalizeForMatch);
  const matched = new Set<string>();
  for (const cand of candidates) {
    for (const [letter, v] of optionPairs(options, allowed, true)) {
      const opt = normalizeForMatch(v);
      if (opt && cand.includes(opt)) matched.add(letter);
    }
  }
  return matched.size === 1 ? [...matched][0]! : null;
}

/** lenient_answer_colon: the first "answer: …" line; a lone allowed letter, else an option text equal to it. */
export function answerColonLetter(text: string, options: Options | null, allowed: Set<string>): string | null {
  const m = ANSWER_COLON.search.exec(text);
  if (!m) return null;
  const candidate = pyStrip(stripLatexWrappers(m[1]!));
  if (pyLen(candidate) === 1 && pyIsAlphaChar(candidate)) {
    const up = candidate.toUpperCase();
    if (allowed.has(up)) return up;
  }
  const norm = normalizeForMatch(candidate);
  for (const entry of options ?? []) {
    for (const [k, v] of Object.entries(entry)) {
      const up = k.toUpperCase();
      if (allowed.has(up) && normalizeForMatch(v) === norm) return up;
    }
  }
  return null;
}

function isAmbiguousChoiceList(text: string, allowed: Set<string>): boolean {
  const found: [string, number, number][] = [];
  for (const m of pyFinditer(CHOICE_LETTER, text)) {
    const up = m[1]!.toUpperCase();
    if (allowed.has(up)) found.push([up, m.index, m.index + m[1]!.length]);
  }
  for (let i = 1; i < found.length; i++) {
    const [left, , leftEnd] = found[i - 1]!;
    const [right, rightStart] = found[i]!;
    if (left !== right && CHOICE_LIST_SEPARATOR.fullmatch.test(text.slice(leftEnd, rightStart))) return true;
  }
  return false;
}

/** One answer payload → a letter: lists of distinct letters are ambiguous; leading letter, else last standalone capital. */
export function choiceLetter(payload: string, allowed: Set<string>): string | null {
  const candidate = pyStrip(pyStrip(normalizeExtractedAnswer(payload)), "*_` \t\n\r.,;:");
  if (isAmbiguousChoiceList(candidate, allowed)) return null;
  let letter: string | null;
  if (pyLen(candidate) === 1) letter = candidate;
  else {
    const lead = LEADING_CHOICE_LETTER.match.exec(candidate);
    if (lead) letter = lead[1]!;
    else letter = LAST_STANDALONE_CHOICE_LETTER.search.exec(candidate)?.[0] ?? null;
  }
  if (!letter) return null;
  const up = letter.toUpperCase();
  return allowed.has(up) ? up : null;
}

/** lenient_answer_colon_md: every "Answer:" payload (markdown-tolerant), last to first; the first letter wins. */
export function answerColonMarkdownLetter(text: string, allowed: Set<string>): string | null {
  const payloads = pyFindall(ANSWER_COLON_PAYLOAD, text) as string[];
  for (let i = payloads.length - 1; i >= 0; i--) {
    const letter = choiceLetter(payloads[i]!, allowed);
    if (letter !== null) return letter;
  }
  return null;
}

/**
 * A template's `output_regex` (Python syntax, searched case-insensitively): the last match's group. A single
 * letter is trusted even outside the options; otherwise an option text must equal it. Invalid regex → null.
 */
export function templateRegexLetter(text: string, pattern: unknown, allowed: Set<string>, options: Options | null): string | null {
  if (typeof pattern !== "string") {
    throw new PyException("TypeError", "first argument must be string or compiled pattern");
  }
  let compiled: PyPattern;
  try {
    compiled = pyCompile(pattern, { ignoreCase: true });
  } catch (error) {
    if (error instanceof PyException && error.pyType === "error") return null;
    throw error;
  }
  const matches = pyFindall(compiled, text);
  if (matches.length === 0) return null;
  const last = matches[matches.length - 1]!;
  // Two or more groups make findall return tuples, and tuple.strip() raises (a 500 in NeMo Gym).
  if (typeof last !== "string") throw new PyException("AttributeError", "'tuple' object has no attribute 'strip'");
  const captured = normalizeExtractedAnswer(pyStrip(last)).toUpperCase();
  if (pyLen(captured) === 1 && pyIsAlphaChar(captured)) return captured;
  const norm = normalizeForMatch(captured);
  for (const [letter, v] of optionPairs(options, allowed, false)) {
    if (v !== null && normalizeForMatch(v) === norm) return letter;
  }
  return null;
}

/** Tries each template pattern in order (a single string is one pattern). */
export function templateRegexesLetter(text: string, patterns: unknown, allowed: Set<string>, options: Options | null): string | null {
  if (typeof patterns === "string") return templateRegexLetter(text, patterns, allowed, options);
  if (!Array.isArray(patterns)) {
    throw new PyException("TypeError", `'${patterns === null ? "NoneType" : typeof patterns === "number" ? "int" : typeof patterns}' object is not iterable`);
  }
  for (const p of patterns) {
    const letter = templateRegexLetter(text, p, allowed, options);
    if (letter !== null) return letter;
  }
  return null;
}

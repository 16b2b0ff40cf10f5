/**
 * NLTK's Punkt sentence tokenizer (nltk 3.8 `PunktSentenceTokenizer.tokenize`), with the run-time algorithm
 * ported rule for rule. The trained English model (`punkt/english.pickle`) cannot be shipped or loaded here:
 * its abbreviation list is replaced by a curated one and its orthographic context by "common lowercase
 * words" (see the README's known differences).
 */
import { PY_SPACE_CLASS } from "../_python/text.ts";
import { ENGLISH_ABBREVIATIONS, LOWERCASE_CONTEXT_WORDS } from "./punkt-english.ts";

const S = `[${PY_SPACE_CLASS}]`;
const NS = `[^${PY_SPACE_CLASS}]`;
const NON_WORD = `(?:[)";}\\]*:@'({\\[?!])`;
const MULTI_CHAR = `(?:-{2,}|\\.{2,}|(?:\\.${S}){2,}\\.)`;
const WORD_START = `[^("\`{\\[:;&#*@)}\\]\\-,]`;
const WORD_RE = new RegExp(
  `${MULTI_CHAR}|(?=${WORD_START})${NS}+?(?=${S}|$|${NON_WORD}|${MULTI_CHAR}|,(?=$|${S}|${NON_WORD}|${MULTI_CHAR}))|${NS}`,
  "gu",
);
const PERIOD_CONTEXT_RE = new RegExp(`[.?!](?=(${NON_WORD}|${S}+(${NS}+)))`, "gu");
const BOUNDARY_REALIGN_RE = new RegExp(`^["')\\]}]+?(?:${S}+|(?=--)|$)`, "mu");
const NUMERIC_RE = /^-?[.,]?\p{Nd}[\p{Nd},.\-]*\.?$/u;
const INITIAL_RE = /^[\p{L}\p{Nl}\p{No}_]\.$/u;
const ELLIPSIS_RE = /^\.\.+$/;
const ASCII_WHITESPACE = " \t\n\r\v\f";
const UPPER = /\p{Uppercase}/u;
const LOWER = /\p{Lowercase}/u;

const ORTHO_BEG_UC = 1 << 1;
const ORTHO_MID_UC = 1 << 2;
const ORTHO_UNK_UC = 1 << 3;
const ORTHO_BEG_LC = 1 << 4;
const ORTHO_MID_LC = 1 << 5;
const ORTHO_UNK_LC = 1 << 6;
const ORTHO_UC = ORTHO_BEG_UC + ORTHO_MID_UC + ORTHO_UNK_UC;
const ORTHO_LC = ORTHO_BEG_LC + ORTHO_MID_LC + ORTHO_UNK_LC;

interface Token {
  tok: string;
  type: string;
  periodFinal: boolean;
  sentbreak: boolean;
  abbr: boolean;
  ellipsis: boolean;
}

function makeToken(tok: string): Token {
  // Python's `tok.lower()` then the numeric type; a token is never empty here.
  const lower = tok.toLowerCase();
  return { tok, type: NUMERIC_RE.test(lower) ? "##number##" : lower, periodFinal: tok.endsWith("."), sentbreak: false, abbr: false, ellipsis: false };
}

const typeNoPeriod = (t: Token) => (t.type.length > 1 && t.type.endsWith(".") ? t.type.slice(0, -1) : t.type);
const typeNoSentPeriod = (t: Token) => (t.sentbreak ? typeNoPeriod(t) : t.type);
const firstUpper = (t: Token) => UPPER.test(String.fromCodePoint(t.tok.codePointAt(0)!));
const firstLower = (t: Token) => LOWER.test(String.fromCodePoint(t.tok.codePointAt(0)!));

function orthoContext(type: string): number {
  return LOWERCASE_CONTEXT_WORDS.has(type) ? ORTHO_MID_LC | ORTHO_BEG_UC : 0;
}

function tokenizeWords(text: string): Token[] {
  const out: Token[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    for (const m of line.matchAll(WORD_RE)) out.push(makeToken(m[0]));
  }
  return out;
}

function firstPass(t: Token): void {
  const tok = t.tok;
  if (tok === "." || tok === "?" || tok === "!") t.sentbreak = true;
  else if (ELLIPSIS_RE.test(tok)) t.ellipsis = true;
  else if (t.periodFinal && !tok.endsWith("..")) {
    const stem = tok.slice(0, -1).toLowerCase();
    if (ENGLISH_ABBREVIATIONS.has(stem) || ENGLISH_ABBREVIATIONS.has(stem.split("-").at(-1)!)) t.abbr = true;
    else t.sentbreak = true;
  }
}

function orthoHeuristic(t: Token): boolean | "unknown" {
  if (";:,.!?".includes(t.tok) && t.tok.length === 1) return false;
  const context = orthoContext(typeNoSentPeriod(t));
  if (firstUpper(t) && context & ORTHO_LC && !(context & ORTHO_MID_UC)) return true;
  if (firstLower(t) && (context & ORTHO_UC || !(context & ORTHO_BEG_LC))) return false;
  return "unknown";
}

function secondPass(t1: Token, t2: Token | undefined): void {
  if (!t2 || !t1.periodFinal) return;
  const typ = typeNoPeriod(t1);
  const nextTyp = typeNoSentPeriod(t2);
  const isInitial = INITIAL_RE.test(t1.tok);
  if ((t1.abbr || t1.ellipsis) && !isInitial) {
    const starter = orthoHeuristic(t2);
    if (starter === true) {
      t1.sentbreak = true;
      return;
    }
  }
  if (isInitial || typ === "##number##") {
    const starter = orthoHeuristic(t2);
    if (starter === false) {
      t1.sentbreak = false;
      t1.abbr = true;
      return;
    }
    if (starter === "unknown" && isInitial && firstUpper(t2) && !(orthoContext(nextTyp) & ORTHO_LC)) {
      t1.sentbreak = false;
      t1.abbr = true;
    }
  }
}

function containsSentbreak(text: string): boolean {
  const tokens = tokenizeWords(text);
  tokens.forEach(firstPass);
  let found = false;
  for (let i = 0; i < tokens.length; i++) {
    secondPass(tokens[i]!, tokens[i + 1]);
    if (found) return true;
    if (tokens[i]!.sentbreak) found = true;
  }
  return false;
}

function lastAsciiWhitespace(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (ASCII_WHITESPACE.includes(text[i]!)) return i;
  return 0;
}

interface EndContext {
  end: number;
  nextTokStart: number | undefined;
  context: string;
}

function* potentialEndContexts(text: string): Generator<EndContext> {
  let prevStart = 0;
  let prevStop = 0;
  let previous: { m: RegExpExecArray } | undefined;
  const emit = (m: RegExpExecArray): EndContext => ({
    end: m.index + 1,
    nextTokStart: m[2] !== undefined ? m.index + 1 + m[1]!.length - m[2].length : undefined,
    context: text.slice(prevStart, prevStop) + m[0] + m[1]!,
  });
  PERIOD_CONTEXT_RE.lastIndex = 0;
  for (let m = PERIOD_CONTEXT_RE.exec(text); m; m = PERIOD_CONTEXT_RE.exec(text)) {
    const before = text.slice(prevStop, m.index);
    let afterSpace = lastAsciiWhitespace(before);
    afterSpace = afterSpace ? afterSpace + prevStop + 1 : prevStart;
    if (previous && prevStop <= afterSpace) yield emit(previous.m);
    previous = { m };
    prevStart = afterSpace;
    prevStop = m.index;
  }
  if (previous) yield emit(previous.m);
}

function* sliceIter(text: string): Generator<[number, number]> {
  let lastBreak = 0;
  for (const c of potentialEndContexts(text)) {
    if (!containsSentbreak(c.context)) continue;
    yield [lastBreak, c.end];
    lastBreak = c.nextTokStart ?? c.end;
  }
  yield [lastBreak, text.trimEnd().length];
}

/** `PunktSentenceTokenizer().tokenize(text)` lazily, sentence by sentence. */
export function* punktSentenceIter(text: string): Generator<string> {
  // _realign_boundaries: closing quotes/brackets after a break belong to the sentence before.
  let realign = 0;
  let current: [number, number] | undefined;
  for (const next of sliceIter(text)) {
    if (current) {
      const start = current[0] + realign;
      const m = BOUNDARY_REALIGN_RE.exec(text.slice(next[0], next[1]));
      if (m) {
        yield text.slice(start, next[0] + m[0].trimEnd().length);
        realign = m[0].length;
      } else {
        realign = 0;
        if (start < current[1]) yield text.slice(start, current[1]);
      }
    }
    current = next;
  }
  if (current && current[0] + realign < current[1]) yield text.slice(current[0] + realign, current[1]);
}

/** `PunktSentenceTokenizer().tokenize(text)` with the English parameters above: the sentences as substrings. */
export function punktSentences(text: string): string[] {
  return [...punktSentenceIter(text)];
}

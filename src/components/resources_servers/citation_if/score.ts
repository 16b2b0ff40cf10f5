/**
 * citation_if's gate sequence (NeMo Gym's `score_citation_if`). Cite mode: 0 structural (text, no tool call),
 * 0b an answer outside the markup, 1 no malformed attempt (no id-shaped token left once well-formed spans are blanked;
 * tag grammars balanced), 2 enough valid citations, 3 none invalid, 4 the expected ids cited within the slack.
 * No-cite mode: no id-shaped token and no markup. Reads citations only, never what the answer says.
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { pyInt } from "../_python/number.ts";
import { pyCompile, pyFinditer, type PyPattern } from "../_python/re.ts";
import { pyStrip } from "../_python/text.ts";
import { ATTEMPT_PATTERN, DEFAULT_ID_PATTERN, GRAMMARS, type Grammar } from "./grammars.ts";

const ATTEMPT = () => pyCompile(ATTEMPT_PATTERN, { ignoreCase: true });
const WORD = () => pyCompile(String.raw`\w`);

/** The grammar's pattern for a row's id scheme. */
export function grammarPattern(grammar: Grammar, idPattern: string): PyPattern {
  const ids = grammar.multi ? `(?:${idPattern})(?:,(?:${idPattern}))*` : `(?:${idPattern})`;
  return pyCompile(grammar.template.replaceAll("{IDS}", ids), { dotAll: grammar.dotAll });
}

interface Span {
  start: number;
  end: number;
  ids: string;
  claim?: [number, number];
}

function spansOf(pattern: PyPattern, grammar: Grammar, text: string): Span[] {
  const spans: Span[] = [];
  const claimed = grammar.claimGroup !== undefined;
  const re = claimed ? new RegExp(pattern.global.source, `${pattern.global.flags}d`) : pattern.global;
  for (const m of pyFinditer({ ...pattern, global: re }, text)) {
    const span: Span = { start: m.index, end: m.index + m[0].length, ids: m[1] ?? "" };
    if (claimed) {
      const claim = m[grammar.claimGroup!];
      if (pyStrip(claim ?? "") === "") continue;
      span.claim = m.indices![grammar.claimGroup!] as [number, number];
    }
    spans.push(span);
  }
  return spans;
}

function blank(text: string, spans: Span[], keepClaims: boolean): string {
  if (spans.length === 0) return text;
  const out = text.split("");
  for (const s of spans) {
    for (let i = s.start; i < s.end; i++) {
      if (keepClaims && s.claim && s.claim[0] <= i && i < s.claim[1]) continue;
      out[i] = " ";
    }
  }
  return out.join("");
}

function countMatches(pattern: string, text: string): number {
  let n = 0;
  for (const _ of pyFinditer(pyCompile(pattern, { ignoreCase: true }), text)) n++;
  return n;
}

const byCodePoint = (a: string, b: string) => {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
};

function strings(value: unknown): string[] {
  return Array.isArray(value) ? (value as string[]) : [];
}

/** The reward (1 or 0) and NeMo Gym's `match_details`. */
export function scoreCitationIf(text: string, functionCallCount: number, verifier: JsonObject): [number, JsonObject] {
  const grammarName = (verifier.grammar ?? "") as string;
  const idKind = (verifier.id_kind ?? "full_source") as string;
  const validSet = new Set(strings(verifier.valid_id_set));
  const expected = verifier.expected_ids ?? null;
  const minValid = pyInt(verifier.min_valid_citations ?? 1);
  const mode = (verifier.mode ?? "cite") as string;
  const grammar = Object.hasOwn(GRAMMARS, grammarName) ? GRAMMARS[grammarName]! : undefined;
  if (!grammar) return [0, { gate_failed: "unknown_grammar", grammar: grammarName }];
  const idPattern = verifier.id_regex ? (verifier.id_regex as string) : (DEFAULT_ID_PATTERN[idKind] ?? DEFAULT_ID_PATTERN.full_source!);
  const pattern = grammarPattern(grammar, idPattern);
  const structuralOk = pyStrip(text) !== "" && functionCallCount === 0;

  let parsed: string[] = [];
  let valid: string[] = [];
  let invalid: string[] = [];
  let attemptHits = false;
  const details = (gate: string | null, extra: { expected?: string[] | null; missed?: string[]; overCap?: boolean } = {}): JsonObject => ({
    gate_failed: gate,
    mode,
    grammar: grammarName,
    id_kind: idKind,
    id_regex: idPattern,
    structural_ok: structuralOk,
    function_call_count: functionCallCount,
    attempt_hits: attemptHits,
    bare_id_hits: attemptHits,
    parsed_ids: parsed,
    cited_ids: valid,
    valid_cited: valid,
    invalid_cited: invalid,
    num_valid_cited: valid.length,
    expected_ids: extra.expected ?? null,
    missed_ids: extra.missed ?? [],
    over_cap: extra.overCap ?? false,
  });
  if (!structuralOk) return [0, details("structural")];

  const spans = spansOf(pattern, grammar, text);
  parsed = [...new Set(spans.flatMap((s) => s.ids.split(",")))];
  valid = parsed.filter((id) => validSet.has(id));
  invalid = parsed.filter((id) => !validSet.has(id));
  attemptHits = ATTEMPT().search.test(text);

  if (mode === "no_cite") {
    const markup = spans.length > 0 || (grammar.open !== undefined && pyCompile(grammar.open, { ignoreCase: true }).search.test(text));
    const ok = !attemptHits && !markup;
    return [ok ? 1 : 0, details(ok ? null : "no_cite")];
  }
  if (!WORD().search.test(blank(text, spans, true))) return [0, details("no_answer")];
  const balanced = grammar.open === undefined || grammar.close === undefined || (countMatches(grammar.open, text) === spans.length && spans.length === countMatches(grammar.close, text));
  if (ATTEMPT().search.test(blank(text, spans, false)) || !balanced) return [0, details("malformed_attempt")];
  if (valid.length < minValid) return [0, details("must_cite")];
  if (invalid.length > 0) return [0, details("no_hallucination")];
  let missed: string[] = [];
  let overCap = false;
  if (expected !== null) {
    const slack = pyInt(verifier.expected_slack ?? 1);
    const expectedSet = new Set(strings(expected));
    const cited = new Set(valid);
    missed = [...expectedSet].filter((id) => !cited.has(id)).sort(byCodePoint);
    overCap = valid.length > expectedSet.size + slack;
    if (missed.length > 0 || overCap) {
      return [0, details(missed.length > 0 ? "correctness_missed_gold" : "correctness_over_cap", { expected: [...strings(expected)], missed, overCap })];
    }
  }
  return [1, details(null, { expected: expected !== null ? [...strings(expected)] : null, missed, overCap })];
}

/** NeMo Gym's `extract_response_shape`: assistant message texts joined by "\n" (empty ones dropped), stripped; function calls counted. */
export function responseShape(response: JsonObject): [string, number] {
  const parts: string[] = [];
  let calls = 0;
  for (const item of (Array.isArray(response.output) ? response.output : []) as JsonObject[]) {
    if (item === null || typeof item !== "object") continue;
    if (item.type === "function_call") calls++;
    if (item.type !== "message" || item.role !== "assistant") continue;
    for (const block of (Array.isArray(item.content) ? item.content : []) as JsonObject[]) {
      if (block !== null && typeof block === "object" && (block.type === "output_text" || block.type === "text") && typeof block.text === "string") parts.push(block.text);
    }
  }
  return [pyStrip(parts.filter((p) => p !== "").join("\n")), calls];
}

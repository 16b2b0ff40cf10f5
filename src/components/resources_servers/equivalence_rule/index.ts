/** equivalence_rule: the response text against `expected_answer` by a configured rule (exact / difflib ratio / weighted). */
import type { JsonObject } from "../../../protocol/responses.ts";
import { pyFloat } from "../../../metrics/pyjson.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { sequenceRatio } from "../../../text/difflib.ts";
import { outputText } from "../_common/output.ts";
import { pyCompile } from "../_python/re.ts";
import { pyPrefix, pyStrip } from "../_python/text.ts";

const RULES = ["seq_match", "weighted_seq_match", "exact"] as const;
type Rule = (typeof RULES)[number];

// Python's \s: Unicode whitespace, including \x1c-\x1f and \x85 that JavaScript's \s leaves out.
const WHITESPACE_RUN = pyCompile(String.raw`\s+`);

/** Trim, lower-case, collapse every whitespace run to one space. */
export function normalize(text: string): string {
  return pyStrip(text).toLowerCase().replace(WHITESPACE_RUN.global, " ");
}

// difflib works on code points (len() in Python); split astral characters only when there are any.
const codePoints = (s: string): string | string[] => (/[\ud800-\udfff]/.test(s) ? Array.from(s) : s);

export function gradeExact(response: string, answer: string): number {
  return normalize(response) === normalize(answer) ? 1 : 0;
}

/** difflib.SequenceMatcher(None, response, answer).ratio() — autojunk included for answers of 200+ characters. */
export function gradeSeqMatch(response: string, answer: string): number {
  return sequenceRatio(codePoints(normalize(response)), codePoints(normalize(answer)));
}

/** 0.85 × full similarity + 0.15 × similarity of the first (up to) 10 characters, clamped to [0, 1]. */
export function gradeWeightedSeqMatch(response: string, answer: string): number {
  const r = normalize(response);
  const a = normalize(answer);
  const sim = sequenceRatio(codePoints(r), codePoints(a));
  const prefix = pyPrefix(a, 10);
  const prefixSim = sequenceRatio(codePoints(pyPrefix(r, Array.from(prefix).length)), codePoints(prefix));
  return Math.max(0, Math.min(1, 0.85 * sim + 0.15 * prefixSim));
}

/** The score of a response under a grading rule. */
export function grade(response: string, answer: string, rule: Rule): number {
  return rule === "seq_match" ? gradeSeqMatch(response, answer) : rule === "weighted_seq_match" ? gradeWeightedSeqMatch(response, answer) : gradeExact(response, answer);
}

export interface EquivalenceRuleConfig extends JsonObject {
  grading_rule: Rule;
}

export default defineResourcesServer<EquivalenceRuleConfig>({
  name: "equivalence_rule",
  className: "EquivalenceRuleResourcesServer",
  config: { fields: { grading_rule: py.withDefault(py.literal(RULES), () => "exact") } },
  verify: {
    // extra="allow" on both models: every other row field is echoed after the declared ones.
    request: { fields: { expected_answer: py.str() }, extra: "allow" },
    response: ["equivalence_score"],
    echoExtra: true,
    handler(body, { config }) {
      const score = grade(outputText(body.response as JsonObject), body.expected_answer as string, config.grading_rule);
      return { reward: score, equivalence_score: pyFloat(score) };
    },
  },
});

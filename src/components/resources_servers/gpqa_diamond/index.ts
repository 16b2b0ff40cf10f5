/**
 * gpqa_diamond: mcqa's request, response and metrics with GPQA's own answer reading: the row's one
 * `template_metadata.output_regex` first, then the last `\boxed{…}` (a lone capital, else its last standalone
 * capital letter), then the last `Answer: X` line; a letter outside the row's options is no answer.
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer } from "../../../servers/resources/index.ts";
import { outputText } from "../_common/output.ts";
import { pyCompile, pyFindall } from "../_python/re.ts";
import { pyLen, pyStrip } from "../_python/text.ts";
import { pyIsUpper } from "../_nlp/pystr.ts";
import mcqa from "../mcqa/index.ts";
import { allowedLetters, templateRegexLetter, type Options } from "../mcqa/extract.ts";

const BOXED = pyCompile(String.raw`\\boxed\{([^}]*)\}`, { dotAll: true });
const STANDALONE_CAPITAL = pyCompile(String.raw`\b([A-Z])\b`, { dotAll: true });
const ANSWER_LINE = pyCompile(String.raw`(?i)[\*\_]{0,2}Answer[\*\_]{0,2}\s*:[\s\*\_]{0,2}\s*([A-Z])(?![a-zA-Z0-9])`);

/** Python's `str.isupper()`. */
const isUpperChar = pyIsUpper;

/** NeMo Gym's `extract_letter`: the letter of the last box, else of the last `Answer:` line, or null. */
export function gpqaLetter(text: string): string | null {
  const boxes = pyFindall(BOXED, text) as string[];
  if (boxes.length > 0) {
    const inner = pyStrip(boxes[boxes.length - 1]!);
    if (pyLen(inner) === 1 && isUpperChar(inner)) return inner;
    const letters = pyFindall(STANDALONE_CAPITAL, inner) as string[];
    if (letters.length > 0) return pyStrip(letters[letters.length - 1]!);
  }
  const answers = pyFindall(ANSWER_LINE, text) as string[];
  return answers.length > 0 ? pyStrip(answers[answers.length - 1]!).toUpperCase() : null;
}

const parent = mcqa.definition;

export default defineResourcesServer({
  ...parent,
  name: "gpqa_diamond",
  className: "GPQADiamondResourcesServer",
  // NeMo Gym pins this server back to UNKNOWN (not mcqa's STATELESS) until it is reviewed for reverify.
  reverifyMode: "unknown",
  verify: {
    ...parent.verify!,
    handler(body) {
      const text = pyStrip(outputText(body.response as JsonObject));
      const options = body.options as Options | null;
      const allowed = allowedLetters(options);
      let pred: string | null = null;
      const template = body.template_metadata as JsonObject | null;
      // Unlike mcqa, one pattern (not a list) and no early return on an empty reply.
      if (template && Object.keys(template).length > 0 && Object.hasOwn(template, "output_regex")) {
        pred = templateRegexLetter(text, template.output_regex, allowed, options);
      }
      if (pred === null) {
        pred = gpqaLetter(text);
        if (pred !== null) {
          pred = pred.toUpperCase();
          if (allowed.size > 0 && !allowed.has(pred)) pred = null;
        }
      }
      const gold = pyStrip((body.expected_answer as string | null) ?? "").toUpperCase();
      return { reward: pred !== null && gold && pred === gold ? 1 : 0, expected_answer: gold, extracted_answer: pred };
    },
  },
});

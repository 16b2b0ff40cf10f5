/** string_match: free-form answers extracted (boxed / final answer / last line / whole text) and graded by a normalisation cascade. */
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { assistantTexts } from "../_common/output.ts";
import { pyCompile, pyFindall } from "../_python/re.ts";
import { pyRstrip, pySplitlines, pyStrip } from "../_python/text.ts";
import { answersMatch } from "./grade.ts";

export { answersMatch, gradeStringMatch } from "./grade.ts";

const MODES = ["boxed", "final_answer", "last_line", "full_response"] as const;
const LATEX_TEXT_WRAP = pyCompile(String.raw`\\text\{\s*(.*?)\s*\}`, { dotAll: true });
const FINAL_ANSWER = pyCompile(String.raw`(?i)(?:final\s+answer|answer)\s*[:：]\s*(.+)`);
const TRAILING_PERIOD = pyCompile(String.raw`\.\s*$`);

function stripLatexWrappers(value: string): string {
  for (;;) {
    const m = LATEX_TEXT_WRAP.fullmatch.exec(value);
    if (!m) return value;
    value = m[1]!;
  }
}

/** The last balanced `\boxed{…}`: boxes are tried from last to first, so an unbalanced last box falls back. */
function extractBoxed(text: string): string | null {
  const starts: number[] = [];
  for (let at = text.indexOf("\\boxed{"); at !== -1; at = text.indexOf("\\boxed{", at + 1)) starts.push(at + 7);
  for (let s = starts.length - 1; s >= 0; s--) {
    let depth = 1;
    for (let i = starts[s]!; i < text.length; i++) {
      const ch = text[i];
      if (ch === "{") depth++;
      else if (ch === "}") depth--;
      if (depth === 0) return pyStrip(stripLatexWrappers(pyStrip(text.slice(starts[s]!, i))));
    }
  }
  return null;
}

/** The last "Final answer: …" / "Answer: …" value: cut at a final period, trailing periods dropped. */
function extractFinalAnswer(text: string): string | null {
  const matches = pyFindall(FINAL_ANSWER, text) as string[];
  if (matches.length === 0) return null;
  const raw = pyStrip(matches[matches.length - 1]!);
  // re.split(r"\.\s*$", raw)[0]: everything before the first place where "." + whitespace reaches the end.
  const m = TRAILING_PERIOD.search.exec(raw);
  return pyRstrip(pyStrip(m ? raw.slice(0, m.index) : raw), ".");
}

function extractLastLine(text: string): string | null {
  const lines = pySplitlines(text);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = pyStrip(lines[i]!);
    if (line) return line;
  }
  return null;
}

/** The answer text for an extraction mode, or null. */
export function extractAnswer(text: string, mode: string): string | null {
  switch (mode) {
    case "boxed":
      return extractBoxed(text);
    case "final_answer":
      return extractFinalAnswer(text) ?? extractBoxed(text);
    case "last_line":
      return extractLastLine(text);
    case "full_response":
      return pyStrip(text) || null;
  }
  return null;
}

export default defineResourcesServer({
  name: "string_match",
  className: "StringMatchResourcesServer",
  verify: {
    request: {
      fields: {
        expected_answer: py.str(),
        extraction_mode: py.withDefault(py.literal(MODES), () => "final_answer"),
        case_sensitive: py.withDefault(py.bool(), () => false),
        metadata: py.optional(py.dict()),
      },
    },
    response: ["expected_answer", "extracted_answer"],
    handler(body) {
      const text = pyStrip(assistantTexts(body.response as JsonObject).join("\n"));
      const extracted = extractAnswer(text, body.extraction_mode as string);
      const expected = body.expected_answer as string;
      const reward = extracted !== null && expected ? answersMatch(extracted, expected, body.case_sensitive as boolean) : 0;
      return { reward, expected_answer: expected, extracted_answer: extracted };
    },
  },
});

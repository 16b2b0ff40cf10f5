/**
 * SpartQA choose-object answers as NeMo Gym's spartqa app.py reads them: reasoning blocks dropped, the last
 * "Final answer: …" (or a looser answer phrase) kept, then resolved to exactly one of the four labels (the two story
 * objects, "both of them", "none of them"); an answer naming two labels resolves to nothing.
 */
import { pyCompile, pyFinditer } from "../_python/re.ts";
import { pyCollapseSpace, pySplitlines, pyStrip } from "../_python/text.ts";

export const BOTH_LABEL = "both of them";
export const NONE_LABEL = "none of them";
const BOTH_ALIASES = new Set(["both", "both of them", "both objects", "both of the objects", "both of these"]);
const NONE_ALIASES = new Set(["none", "none of them", "none of the objects", "neither", "neither of them", "neither object", "no object", "dk", "do not know", "dont know"]);
const PUNCTUATION = new Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");

/** Stripped, lower-cased, ASCII punctuation removed, whitespace collapsed. */
export function normalize(text: string): string {
  return pyCollapseSpace(Array.from(pyStrip(text).toLowerCase()).filter((ch) => !PUNCTUATION.has(ch)).join(""));
}

const THINK = pyCompile("<think>.*?</think>", { ignoreCase: true, dotAll: true });
const CHANNEL_THOUGHT = pyCompile(String.raw`<\|channel\>thought\s*.*?<channel\|>`, { ignoreCase: true, dotAll: true });
const LEADING_BULLETS = pyCompile(String.raw`^[-*•\s]+`);
const EDGE_STARS = pyCompile(String.raw`^\*+|\*+$`);
const THINK_TAG = pyCompile("</?think>", { ignoreCase: true });
const ANSWER_PATTERNS = [
  String.raw`(?:^|\n)\s*(?:[*_${"`"}#>\-\s]*)final\s+answer(?:\s+is)?\s*(?:[*_${"`"}\s])*[:\-]\s*(.+)`,
  String.raw`(?:^|\n)\s*(?:[*_${"`"}#>\-\s]*)selected\s+answer(?:\s+is)?\s*(?:[*_${"`"}\s])*[:\-]\s*(.+)`,
  String.raw`(?:^|\n)\s*(?:[*_${"`"}#>\-\s]*)answer(?:\s+is)?\s*(?:[*_${"`"}\s])*[:\-]\s*(.+)`,
  String.raw`\b(?:the\s+)?(?:final\s+)?answer\s+(?:is|would\s+be|should\s+be)\s*[:\-]?\s*(.+)`,
  String.raw`\bselected\s+(?:option|answer)\s+(?:is|would\s+be)\s*[:\-]?\s*(.+)`,
].map((p) => pyCompile(p, { ignoreCase: true, multiline: true }));
const REASONING_OPENERS = ["thinking process", "analysis", "the user wants", "we need"];

function cleanCandidate(text: string): string {
  let out = pyStrip(text).replace(LEADING_BULLETS.search, "");
  out = pyStrip(out.replace(EDGE_STARS.global, ""));
  out = pyStrip(out.replace(THINK_TAG.global, ""));
  return pyStrip(pyStrip(out), "\"'` ");
}

/** The model's answer text: the last real "…answer: X" capture (template echoes skipped), its first non-empty line. */
export function extractAnswer(raw: string): string {
  let text = pyStrip(raw.replace(THINK.global, "").replace(CHANNEL_THOUGHT.global, ""));
  let extracted: string | null = null;
  for (const pattern of ANSWER_PATTERNS) {
    const captures = [...pyFinditer(pattern, text)].map((m) => pyStrip(m[1]!)).filter((c) => c && normalize(c) !== "candidate answer");
    if (captures.length > 0) {
      extracted = captures.at(-1)!;
      break;
    }
  }
  if (extracted !== null) text = extracted;
  const lines = pySplitlines(text).filter((line) => pyStrip(line)).map(cleanCandidate).filter((line) => line && !["final answer", "answer"].includes(normalize(line)));
  if (lines.length === 0) return "";
  if (extracted === null && lines.length > 1 && REASONING_OPENERS.some((o) => normalize(lines[0]!).startsWith(o))) return lines.at(-1)!;
  return lines[0]!;
}

const LEADING_ARTICLE = pyCompile(String.raw`^(?:a|an|the)\s+`);

/** Article-insensitive comparison key of a label or a prediction. */
export const labelKey = (text: string): string => pyStrip(normalize(text).replace(LEADING_ARTICLE.search, ""));

/** The candidate labels: the two objects, then "both of them" and "none of them", deduplicated by key. */
export function candidateLabels(options: string[]): string[] {
  const labels: string[] = [];
  const seen = new Set<string>();
  for (const label of [...options, BOTH_LABEL, NONE_LABEL]) {
    const key = labelKey(label);
    if (key && !seen.has(key)) {
      seen.add(key);
      labels.push(pyStrip(label));
    }
  }
  return labels;
}

/** The one label the prediction names (equal key, an alias, or a single most specific contained label), else null. */
export function matchLabel(prediction: string, labels: string[]): string | null {
  const key = labelKey(prediction);
  if (!key) return null;
  const byKey = new Map<string, string>();
  for (const label of labels) byKey.set(labelKey(label), label);
  if (byKey.has(key)) return byKey.get(key)!;
  const values = [...byKey.values()];
  if (BOTH_ALIASES.has(key) && values.includes(BOTH_LABEL)) return byKey.get(labelKey(BOTH_LABEL)) ?? null;
  if (NONE_ALIASES.has(key) && values.includes(NONE_LABEL)) return byKey.get(labelKey(NONE_LABEL)) ?? null;
  const hits = [...byKey.keys()].filter((k) => k && key.includes(k));
  const specific = hits.filter((h) => !hits.some((other) => other !== h && other.includes(h)));
  return specific.length === 1 ? byKey.get(specific[0]!)! : null;
}

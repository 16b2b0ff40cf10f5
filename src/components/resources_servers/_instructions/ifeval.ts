/**
 * The IFEval checkers as NeMo Gym's `instruction_following` runs them (abukharin-nv/verifiable-instructions,
 * the open-instruct copy of google-research's instruction_following_eval): one entry per instruction id.
 */
import { pyCompile } from "../_python/re.ts";
import { pySplit, pyStrip } from "../_python/text.ts";
import { detectLanguage, LangDetectError } from "../_nlp/langdetect.ts";
import { punktSentences } from "../_nlp/punkt.ts";
import { pyIsLower, pyIsUpper } from "../_nlp/pystr.ts";
import { wordRuns, wordTokenize } from "../_nlp/word-tokenize.ts";
import { compare, KwargsError, RELATIONS } from "./kwargs.ts";
import { countMatches, findAll, searches, splitOn } from "./regex.ts";
import { none, type Registry } from "./types.ts";

const rel = { type: "str", required: true, oneOf: RELATIONS } as const;
const count = (name: string, min = 0) => ({ [name]: { type: "int", required: true, min } as const });

/** langdetect.detect(value) == language, where "no features" counts as followed (upstream logs and returns True). */
function languageIs(value: string, language: string): boolean {
  try {
    return detectLanguage(value) === language;
  } catch (error) {
    if (error instanceof LangDetectError) return true;
    throw error;
  }
}

/** Python's `str.removeprefix` / `removesuffix`. */
const removePrefix = (s: string, p: string) => (s.startsWith(p) ? s.slice(p.length) : s);
const removeSuffix = (s: string, p: string) => (p && s.endsWith(p) ? s.slice(0, -p.length) : s);

const PY_JSON_CONSTANTS = /(^|[[,:])(\s*)-?(?:NaN|Infinity)(?=\s*(?:[\],}]|$))/g;

/** json.loads acceptance: JSON, plus the NaN / Infinity / -Infinity constants Python's decoder also takes. */
export function isJson(text: string): boolean {
  for (const candidate of [text, text.replace(PY_JSON_CONSTANTS, "$1$20")]) {
    try {
      JSON.parse(candidate);
      return true;
    } catch {
      // try the next spelling
    }
  }
  return false;
}

/** `paragraphs = re.split(r"\s?\*\*\*\s?", value)` counted the way ParagraphChecker does (null: an empty middle one). */
export function markdownParagraphs(value: string): number | null {
  const paragraphs = splitOn("\\s?\\*\\*\\*\\s?", value);
  let n = paragraphs.length;
  for (let i = 0; i < paragraphs.length; i++) {
    if (!pyStrip(paragraphs[i]!)) {
      if (i === 0 || i === paragraphs.length - 1) n--;
      else return null;
    }
  }
  return n;
}

export const IFEVAL: Registry = {
  "keywords:existence": {
    params: { keywords: { type: "strs", required: true, falsyIsMissing: true } },
    build: ({ keywords }) => {
      const sorted = [...(keywords as string[])].sort();
      return (value) => sorted.every((k) => searches(k, value, { ignoreCase: true }));
    },
  },
  "keywords:frequency": {
    params: { keyword: { type: "str", required: true, falsyIsMissing: true }, ...count("frequency"), relation: rel },
    build: ({ keyword, frequency, relation }) => {
      const k = pyStrip(keyword as string);
      return (value) => compare(countMatches(k, value, { ignoreCase: true }), relation, frequency as number);
    },
  },
  "keywords:forbidden_words": {
    params: { forbidden_words: { type: "strs", required: true, falsyIsMissing: true } },
    build: ({ forbidden_words }) => {
      const words = [...new Set(forbidden_words as string[])].sort();
      return (value) => !words.some((w) => searches(`\\b${w}\\b`, value, { ignoreCase: true }));
    },
  },
  "keywords:letter_frequency": {
    params: { letter: { type: "str", required: true }, ...count("let_frequency"), let_relation: rel },
    build: ({ letter, let_frequency, let_relation }) => {
      const l = letter as string;
      const code = l.toLowerCase().codePointAt(0) ?? 0;
      if (!l || [...l].length > 1 || code < 97 || code > 122) throw new KwargsError("letter", "Input should be one ASCII letter (upstream draws a random one otherwise)", l);
      const target = pyStrip(l).toLowerCase();
      return (value) => {
        let n = 0;
        for (const ch of value.toLowerCase()) if (ch === target) n++;
        return compare(n, let_relation, let_frequency as number);
      };
    },
  },
  "language:response_language": {
    params: { language: { type: "str", required: true } },
    build: ({ language }) => (value) => languageIs(value, language as string),
  },
  "length_constraints:number_sentences": {
    params: { ...count("num_sentences"), relation: rel },
    build: ({ num_sentences, relation }) => (value) => compare(punktSentences(value).length, relation, num_sentences as number),
  },
  "length_constraints:number_paragraphs": {
    params: count("num_paragraphs"),
    build: ({ num_paragraphs }) => (value) => markdownParagraphs(value) === num_paragraphs,
  },
  "length_constraints:number_words": {
    params: { ...count("num_words"), relation: rel },
    build: ({ num_words, relation }) => (value) => compare(wordRuns(value).length, relation, num_words as number),
  },
  "length_constraints:nth_paragraph_first_word": {
    params: { ...count("num_paragraphs"), nth_paragraph: { type: "int", required: true, min: 1 }, first_word: { type: "str", required: true } },
    build: ({ num_paragraphs, nth_paragraph, first_word }) => {
      const total = num_paragraphs as number;
      const nth = nth_paragraph as number;
      if (nth > total) throw new KwargsError("nth_paragraph", "Input should not exceed num_paragraphs (upstream draws a random one otherwise)", nth);
      const expected = (first_word as string).toLowerCase();
      return (value) => {
        const paragraphs = value.split("\n\n");
        let n = paragraphs.length;
        for (const p of paragraphs) if (!pyStrip(p)) n--;
        if (nth > n) return false;
        const paragraph = pyStrip(paragraphs[nth - 1]!);
        if (!paragraph) return false;
        let word = pyStrip(pySplit(paragraph)[0]!);
        word = word.replace(/^'+/, "").replace(/^"+/, "");
        let first = "";
        for (const ch of word) {
          if (".,?!'\"".includes(ch)) break;
          first += ch.toLowerCase();
        }
        return n === total && first === expected;
      };
    },
  },
  "detectable_content:number_placeholders": {
    params: count("num_placeholders"),
    build: ({ num_placeholders }) => (value) => countMatches("\\[.*?\\]", value) >= (num_placeholders as number),
  },
  "detectable_content:postscript": {
    params: { postscript_marker: { type: "str", required: true } },
    build: ({ postscript_marker }) => {
      const marker = pyStrip(postscript_marker as string);
      const pattern = marker === "P.P.S" ? "\\s*p\\.\\s?p\\.\\s?s.*$" : marker === "P.S." ? "\\s*p\\.\\s?s\\..*$" : `\\s*${marker.toLowerCase()}.*$`;
      return (value) => countMatches(pattern, value.toLowerCase(), { multiline: true }) > 0;
    },
  },
  "detectable_format:number_bullet_lists": {
    params: count("num_bullets"),
    build: ({ num_bullets }) => (value) =>
      countMatches("^\\s*\\*[^\\*].*$", value, { multiline: true }) + countMatches("^\\s*-.*$", value, { multiline: true }) === num_bullets,
  },
  "detectable_format:constrained_response": {
    params: none,
    build: () => (value) => {
      const v = pyStrip(value);
      return ["My answer is yes.", "My answer is no.", "My answer is maybe."].some((o) => v.includes(o));
    },
  },
  "detectable_format:number_highlighted_sections": {
    params: count("num_highlights"),
    build: ({ num_highlights }) => (value) => {
      let n = 0;
      for (const h of findAll("\\*[^\\n\\*]*\\*", value)) if (pyStrip(pyStrip(h, "*"))) n++;
      for (const h of findAll("\\*\\*[^\\n\\*]*\\*\\*", value)) if (pyStrip(removeSuffix(removePrefix(h, "**"), "**"))) n++;
      return n >= (num_highlights as number);
    },
  },
  "detectable_format:multiple_sections": {
    params: { section_spliter: { type: "str", required: true }, ...count("num_sections") },
    build: ({ section_spliter, num_sections }) => {
      const pattern = `\\s?${pyStrip(section_spliter as string)}\\s?\\d+\\s?`;
      pyCompile(pattern);
      return (value) => splitOn(pattern, value).length - 1 >= (num_sections as number);
    },
  },
  "detectable_format:json_format": {
    params: none,
    build: () => (value) => {
      let v = pyStrip(value);
      for (const p of ["```json", "```Json", "```JSON", "```"]) v = removePrefix(v, p);
      return isJson(pyStrip(removeSuffix(v, "```")));
    },
  },
  "detectable_format:title": {
    params: none,
    build: () => (value) => findAll("<<[^\\n]+>>", value).some((t) => pyStrip(t.replace(/^<+/, "").replace(/>+$/, ""))),
  },
  "combination:two_responses": {
    params: none,
    build: () => (value) => {
      const valid: string[] = [];
      const parts = value.split("******");
      for (let i = 0; i < parts.length; i++) {
        if (!pyStrip(parts[i]!)) {
          if (i !== 0 && i !== parts.length - 1) return false;
        } else valid.push(parts[i]!);
      }
      return valid.length === 2 && pyStrip(valid[0]!) !== pyStrip(valid[1]!);
    },
  },
  "combination:repeat_prompt": {
    params: { prompt_to_repeat: { type: "str", required: true, falsyIsMissing: true } },
    build: ({ prompt_to_repeat }) => (value) => pyStrip(value).toLowerCase().startsWith(pyStrip(prompt_to_repeat as string).toLowerCase()),
  },
  "startend:end_checker": {
    params: { end_phrase: { type: "str", required: true } },
    build: ({ end_phrase }) => {
      const phrase = pyStrip(pyStrip(end_phrase as string)).toLowerCase();
      return (value) => pyStrip(pyStrip(value), '"').toLowerCase().endsWith(phrase);
    },
  },
  "change_case:capital_word_frequency": {
    params: { capital_frequency: { type: "int", required: true }, capital_relation: rel },
    build: ({ capital_frequency, capital_relation }) => (value) =>
      compare(wordTokenize(value).filter(pyIsUpper).length, capital_relation, capital_frequency as number),
  },
  "change_case:english_capital": {
    params: none,
    build: () => (value) => pyIsUpper(value) && languageIs(value, "en"),
  },
  "change_case:english_lowercase": {
    params: none,
    build: () => (value) => pyIsLower(value) && languageIs(value, "en"),
  },
  "punctuation:no_comma": { params: none, build: () => (value) => !value.includes(",") },
  "startend:quotation": {
    params: none,
    build: () => (value) => {
      const v = pyStrip(value);
      return [...v].length > 1 && v.startsWith('"') && v.endsWith('"');
    },
  },
};

/** The open-instruct training constraints that `instruction_following` registers beside IFEval's (verifiable-instructions). */
import { pySplit, pyStrip } from "../_python/text.ts";
import { splitIntoSentences } from "../_nlp/rule-sentences.ts";
import { pyReverse } from "../_nlp/pystr.ts";
import { wordTokenize } from "../_nlp/word-tokenize.ts";
import { IFEVAL, markdownParagraphs } from "./ifeval.ts";
import { compare, RELATIONS } from "./kwargs.ts";
import { pySlice } from "./pyslice.ts";
import { countMatches, findAll, splitOn, substitute } from "./regex.ts";
import { none, type Registry } from "./types.ts";

const required = (type: "int" | "str" | "str_or_strs") => ({ type, required: true, falsyIsMissing: true }) as const;
const prompt = { prompt_to_repeat: required("str") };
const sameText = (a: string, b: string) => pyStrip(a).toLowerCase() === pyStrip(b).toLowerCase();
const firstOf = (x: unknown) => pyStrip(typeof x === "string" ? x : (x as string[])[0]!);

export const IFTRAIN: Registry = {
  "copy:repeat_phrase": {
    params: { phrase: required("str"), small_n: required("int") },
    build: ({ phrase, small_n }) => {
      const ref = pySplit(pyStrip(phrase as string));
      const pattern = `${ref[0]} .*? ${ref.at(-1)}`;
      return (value) => {
        const found = findAll(pattern, value);
        if (found.length !== small_n) return false;
        let differences = 0;
        for (const f of found) {
          const words = pySplit(f);
          differences = 0;
          if (words.length !== ref.length) return false;
          for (let i = 0; i < words.length; i++) {
            if (words[i] !== ref[i] && ++differences > 1) return false;
          }
        }
        return differences === 1;
      };
    },
  },
  "copy:copy": { params: prompt, build: ({ prompt_to_repeat }) => (value) => sameText(value, prompt_to_repeat as string) },
  "new:copy_span_idx": {
    // n_start = 0 is falsy upstream (a random start in [0, len-2]); 0 is one of those draws, so it is kept.
    params: { ...prompt, n_start: { type: "int", required: true }, n_end: required("int") },
    build: ({ prompt_to_repeat, n_start, n_end }) => (value) => sameText(value, pySlice(prompt_to_repeat as string, n_start as number, n_end as number)),
  },
  "detectable_format:sentence_hyphens": {
    params: none,
    build: () => (value) => {
      const gold = splitIntoSentences(value.replaceAll("-", " "));
      const parts = value.split("-");
      for (let i = 0; i < Math.min(parts.length, gold.length); i++) {
        if (pyStrip(parts[i]!) !== parts[i] || parts[i] !== gold[i]) return false;
      }
      return true;
    },
  },
  "keywords:no_adjacent_consecutive": {
    params: none,
    build: () => (value) => {
      const words = pySplit(value);
      for (let i = 0; i < words.length - 1; i++) {
        const a = Array.from(String.fromCodePoint(words[i]!.codePointAt(0)!).toLowerCase());
        const b = Array.from(String.fromCodePoint(words[i + 1]!.codePointAt(0)!).toLowerCase());
        if (a.length !== 1 || b.length !== 1) return false;
        if (b[0]!.codePointAt(0)! - a[0]!.codePointAt(0)! === 1) return false;
      }
      return true;
    },
  },
  "detectable_format:square_brackets": {
    params: none,
    build: () => (value) => pySplit(value).every((w) => w.startsWith("[") && w.endsWith("]")),
  },
  "keywords:word_once": {
    params: { keyword: required("str") },
    build: ({ keyword }) => (value) => countMatches(pyStrip(keyword as string), value, { ignoreCase: true }) === 1,
  },
  "keywords:word_count_different_numbers": {
    params: { keyword: required("str"), frequency: { type: "int", required: true, min: 0 }, relation: { type: "str", required: true, oneOf: RELATIONS } },
    build: ({ keyword, frequency, relation }) => (value) =>
      compare(countMatches(pyStrip(keyword as string), value, { ignoreCase: true }), relation, frequency as number),
  },
  "keywords:exclude_word_harder": {
    params: { keyword: required("str") },
    build: ({ keyword }) => (value) => !value.includes(` ${pyStrip(keyword as string)} `),
  },
  "paragraphs:paragraphs": { params: none, build: () => (value) => markdownParagraphs(value) === 2 },
  "paragraphs:paragraphs2": {
    params: none,
    build: () => (value) => {
      const paragraphs = value.split("\n\n");
      let n = paragraphs.length;
      for (let i = 0; i < paragraphs.length; i++) {
        if (!pyStrip(paragraphs[i]!)) {
          if (i === 0 || i === paragraphs.length - 1) n--;
          else return false;
        }
      }
      return n === 2;
    },
  },
  "first_word:first_word_sent": {
    params: { first_word: required("str") },
    build: ({ first_word }) => {
      const want = pyStrip(first_word as string).toLowerCase();
      return (value) => splitIntoSentences(value).every((s) => !!pyStrip(s) && pyStrip(pySplit(s)[0]!).toLowerCase() === want);
    },
  },
  "first_word:first_word_answer": {
    params: { first_word: required("str") },
    build: ({ first_word }) => (value) => {
      const words = pySplit(value);
      return !!pyStrip(value) && words.length > 0 && pyStrip(words[0]!).toLowerCase() === pyStrip(first_word as string).toLowerCase();
    },
  },
  "last_word:last_word_sent": {
    params: { last_word: required("str_or_strs") },
    build: ({ last_word }) => {
      const want = firstOf(last_word).toLowerCase();
      return (value) =>
        splitIntoSentences(value).every((s) => !!pyStrip(s) && substitute("[^\\w\\s]", "", pyStrip(pySplit(s).at(-1)!)).toLowerCase() === want);
    },
  },
  "last_word:last_word_answer": {
    params: { last_word: required("str") },
    build: ({ last_word }) => (value) => {
      const words = pySplit(value);
      if (words.length === 0) throw new RangeError("list index out of range");
      return substitute("[^\\w\\s]", "", pyStrip(words.at(-1)!)).toLowerCase() === pyStrip(last_word as string).toLowerCase();
    },
  },
  "detectable_format:bigram_wrapping": {
    params: none,
    build: () => (value) => {
      const words = pySplit(value);
      for (let i = 0; i < words.length - 1; i += 2) if (!(words[i]!.startsWith("<<") && words[i + 1]!.endsWith(">>"))) return false;
      return true;
    },
  },
  "copy:copying_simple": { params: prompt, build: ({ prompt_to_repeat }) => (value) => sameText(value, prompt_to_repeat as string) },
  "copy:copying_multiple": {
    params: { ...prompt, N: required("int") },
    build: ({ prompt_to_repeat, N }) => (value) => {
      const parts = value.split("******");
      return parts.length === N && parts.every((p) => sameText(p, prompt_to_repeat as string));
    },
  },
  "punctuation:punctuation_dot": { params: none, build: () => (value) => !value.includes(".") },
  "punctuation:punctuation_exclamation": { params: none, build: () => (value) => !value.includes("!") },
  "count:lowercase_counting": {
    params: { N: required("int") },
    build: ({ N }) => (value) => countMatches("\\b[a-z]+\\b", value) <= (N as number),
  },
  "letters:letter_counting": {
    params: { N: required("int"), relation: required("str") },
    build: ({ N, relation }) => (value) => {
      const letters = countMatches("[a-zA-Z]", value);
      if (relation === "at least") return letters >= (N as number);
      if (relation === "less than") return letters < (N as number);
      return false;
    },
  },
  "letters:letter_counting2": IFEVAL["keywords:letter_frequency"]!,
  "count:counting_composition": {
    params: { n_sent: required("int"), n_words: required("int") },
    build: ({ n_sent, n_words }) => (value) => {
      const paragraphs = splitOn("\\s?\\*\\*\\*\\s?", value);
      let n = paragraphs.length;
      for (let i = 0; i < paragraphs.length; i++) {
        if (!pyStrip(paragraphs[i]!)) {
          if (i === 0 || i === paragraphs.length - 1) n--;
          else return false;
        }
        const sentences = splitIntoSentences(paragraphs[i]!);
        if (sentences.length !== n_sent) return false;
        for (const s of sentences) if (wordTokenize(s).length !== n_words) return false;
      }
      return n === 3;
    },
  },
  "count:count_unique": {
    params: none,
    build: () => (value) => {
      const words = wordTokenize(value);
      return words.length === new Set(words).size;
    },
  },
  "count:count_increment_word": {
    params: { keyword1: required("str"), keyword2: required("str") },
    build: ({ keyword1, keyword2 }) => (value) =>
      countMatches(pyStrip(keyword1 as string), value, { ignoreCase: true }) === 1 &&
      countMatches(pyStrip(keyword2 as string), value, { ignoreCase: true }) === 2,
  },
  "keywords:palindrome": { params: none, build: () => (value) => pySplit(value).some((w) => w === pyReverse(w)) },
  "keywords:keyword_specific_position": {
    params: { keyword: required("str_or_strs"), n: { ...required("int"), min: 1 }, m: { ...required("int"), min: 1 } },
    build: ({ keyword, n, m }) => {
      const want = firstOf(keyword);
      return (value) => {
        const sentences = splitIntoSentences(value);
        if (sentences.length < (n as number)) return false;
        const words = wordTokenize(sentences[(n as number) - 1]!);
        return words.length >= (m as number) && words[(m as number) - 1] === want;
      };
    },
  },
  "keywords:start_end": {
    params: none,
    build: () => (value) => {
      const words = wordTokenize(value);
      return words.length >= 2 && words[0]!.toLowerCase() === words.at(-1)!.toLowerCase();
    },
  },
};



/** IFBench checkers on words, counts, ratios and sentences (allenai/IFBench at NeMo Gym's pinned commit c6767a1). */
import { pySplit, pyStrip } from "../_python/text.ts";
import { posTags } from "../_nlp/pos.ts";
import { pyIsDigit, pyReverse } from "../_nlp/pystr.ts";
import { splitIntoSentences } from "../_nlp/rule-sentences.ts";
import { ENGLISH_STOPWORDS } from "../_nlp/stopwords.ts";
import { firstWords, wordRuns, wordTokenize } from "../_nlp/word-tokenize.ts";
import { syllable } from "syllable";
import { dropPunctuation, lstripPunctuation, rstripPunctuation, stripPunctuation } from "./py-punct.ts";
import { countMatches } from "./regex.ts";
import { none, type Registry } from "./types.ts";

const need = (type: "int" | "number" | "str") => ({ type, required: true, min: type === "str" ? undefined : 0 }) as const;
const falsy = (type: "int" | "str") => ({ type, required: true, falsyIsMissing: true }) as const;
const cps = (s: string) => Array.from(s);
const first = (s: string) => String.fromCodePoint(s.codePointAt(0)!);
const syllableCache = new Map<string, number>();
function syllables(word: string): number {
  let n = syllableCache.get(word);
  if (n === undefined) {
    if (syllableCache.size > 100_000) syllableCache.clear();
    syllableCache.set(word, (n = syllable(word)));
  }
  return n;
}

/** Python's `seq[i]` with a negative index counting from the end; throws IndexError out of range. */
function at<T>(seq: T[], i: number): T {
  const j = i < 0 ? seq.length + i : i;
  if (j < 0 || j >= seq.length) throw new RangeError("list index out of range");
  return seq[j]!;
}

/** Counts of sentences ending with `.`, `?`, `!` (IFBench's ratio checkers). */
function endings(value: string): { dot: number; question: number; bang: number } {
  const sentences = splitIntoSentences(value);
  return {
    dot: sentences.filter((s) => s.endsWith(".")).length,
    question: sentences.filter((s) => s.endsWith("?")).length,
    bang: sentences.filter((s) => s.endsWith("!")).length,
  };
}

const PERSON_NAMES = (
  "Emma Liam Sophia Jackson Olivia Noah Ava Lucas Isabella Mason Mia Ethan Charlotte Alexander Amelia Benjamin Harper Leo Zoe " +
  "Daniel Chloe Samuel Lily Matthew Grace Owen Abigail Gabriel Ella Jacob Scarlett Nathan Victoria Elijah Layla Nicholas Audrey " +
  "David Hannah Christopher Penelope Thomas Nora Andrew Aria Joseph Claire Ryan Stella Jonathan"
).split(" ");
const CONJUNCTIONS = new Set(["and", "but", "for", "nor", "or", "so", "yet"]);
const PRONOUNS = new Set(
  "i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself they them their theirs themselves".split(" "),
);
const PRIMES = new Set([2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97]);
const CONSONANTS = new Set("bcdfghjklmnpqrstvwxyz");
const ALPHABET = "abcdefghijklmnopqrstuvwxyz";

export const IFBENCH_TEXT: Registry = {
  "count:word_count_range": {
    params: { min_words: need("int"), max_words: need("int") },
    build: ({ min_words, max_words }) => (value) => {
      const n = wordRuns(value).length;
      return (min_words as number) <= n && n <= (max_words as number);
    },
  },
  "count:unique_word_count": {
    params: { N: need("int") },
    build: ({ N }) => (value) => new Set(pySplit(value.toLowerCase()).map(stripPunctuation)).size >= (N as number),
  },
  "ratio:stop_words": {
    params: { percentage: need("number") },
    build: ({ percentage }) => (value) => {
      const tokens = wordRuns(value);
      if (tokens.length === 0) throw new RangeError("division by zero");
      return (tokens.filter((t) => ENGLISH_STOPWORDS.has(t.toLowerCase())).length / tokens.length) * 100 <= (percentage as number);
    },
  },
  "ratio:sentence_type": {
    params: none,
    build: () => (value) => {
      const e = endings(value);
      return e.dot === 2 * e.question;
    },
  },
  "ratio:sentence_balance": {
    params: none,
    build: () => (value) => {
      const e = endings(value);
      return e.dot === e.question && e.question === e.bang;
    },
  },
  "count:conjunctions": {
    params: { small_n: need("int") },
    build: ({ small_n }) => (value) => new Set(pySplit(value).filter((w) => CONJUNCTIONS.has(stripPunctuation(w).toLowerCase()))).size >= (small_n as number),
  },
  "count:person_names": {
    params: { N: need("int") },
    build: ({ N }) => (value) => PERSON_NAMES.filter((name) => value.includes(name)).length >= (N as number),
  },
  "ratio:overlap": {
    params: { reference_text: { type: "str", required: true }, percentage: need("number") },
    build: ({ reference_text, percentage }) => {
      const trigrams = (s: string) => {
        const c = cps(s);
        const out = new Set<string>();
        for (let i = 0; i + 3 <= c.length; i++) out.add(`${c[i]}\u0000${c[i + 1]}\u0000${c[i + 2]}`);
        return out;
      };
      const ref = trigrams(reference_text as string);
      const p = percentage as number;
      return (value) => {
        const grams = trigrams(value);
        if (grams.size === 0) throw new RangeError("division by zero");
        let shared = 0;
        for (const g of grams) if (ref.has(g)) shared++;
        const overlap = (shared / grams.size) * 100;
        return p - 2 <= overlap && overlap <= p + 2;
      };
    },
  },
  "count:numbers": {
    params: { N: need("int") },
    build: ({ N }) => (value) => countMatches("\\d+", dropPunctuation(value)) === N,
  },
  "words:alphabet": {
    params: none,
    build: () => (value) => {
      const words = pySplit(stripPunctuation(dropPunctuation(value)));
      if (words.length === 0) return false;
      let letter = first(words[0]!).toLowerCase();
      if (!ALPHABET.includes(letter)) return false;
      for (const raw of words.slice(1)) {
        const word = stripPunctuation(raw).toLowerCase();
        if (!word) continue;
        letter = ALPHABET[(ALPHABET.indexOf(letter) + 1) % 26]!;
        if (first(word) !== letter) return false;
      }
      return true;
    },
  },
  "words:vowel": {
    params: none,
    build: () => (value) => {
      const paragraphs = pyStrip(value).split("\n");
      if (paragraphs.length !== 1) return false;
      return new Set(cps(paragraphs[0]!.toLowerCase()).filter((c) => "aeiou".includes(c))).size <= 3;
    },
  },
  "words:consonants": {
    params: none,
    build: () => (value) =>
      pySplit(pyStrip(value.toLowerCase())).every((word) => {
        const c = cps(word);
        for (let i = 0; i < c.length - 1; i++) if (CONSONANTS.has(c[i]!) && CONSONANTS.has(c[i + 1]!)) return true;
        return false;
      }),
  },
  "sentence:alliteration_increment": {
    params: none,
    build: () => (value) => {
      let previous = -1;
      for (const sentence of splitIntoSentences(value)) {
        const words = pySplit(sentence.toLowerCase()).map(lstripPunctuation).filter((w) => w);
        let alliteration = 0;
        let previousAlliterative = false;
        for (let i = 0; i < words.length - 1; i++) {
          if (first(words[i]!) === first(words[i + 1]!)) {
            alliteration += previousAlliterative ? 1 : 2;
            previousAlliterative = true;
          } else previousAlliterative = false;
        }
        if (alliteration <= previous) return false;
        previous = alliteration;
      }
      return true;
    },
  },
  "words:palindrome": {
    params: none,
    build: () => (value) => pySplit(dropPunctuation(value).toLowerCase()).filter((w) => w === pyReverse(w) && cps(w).length >= 5).length >= 10,
  },
  "words:prime_lengths": {
    params: none,
    build: () => (value) => pySplit(dropPunctuation(value)).every((w) => PRIMES.has(cps(w).length)),
  },
  "ratio:sentence_words": {
    params: none,
    build: () => (value) => {
      const sentences = splitIntoSentences(value);
      if (sentences.length !== 3) return false;
      const n = cps(pyStrip(sentences[0]!)).length;
      return sentences.every((s) => cps(pyStrip(s)).length === n);
    },
  },
  "count:words_japanese": {
    params: { N: need("int") },
    build: ({ N }) => (value) => {
      const words = pySplit(value);
      for (let i = 0; i < words.length; i++) {
        const word = stripPunctuation(words[i]!);
        if ((N as number) === 0) throw new RangeError("integer modulo by zero");
        if ((i + 1) % (N as number) === 0 && word && !pyIsDigit(word) && !/[\u3040-\u30ff\u4e00-\u9fff]/.test(word)) return false;
      }
      return true;
    },
  },
  "words:start_verb": {
    params: none,
    build: () => (value) => {
      // The first token's tag depends on its neighbours only: the first sentence's first tokens are enough.
      const tokens = firstWords(value, 8);
      return tokens.length > 0 && posTags(tokens)[0]!.includes("VB");
    },
  },
  "words:repeats": {
    params: { small_n: need("int") },
    build: ({ small_n }) => (value) => {
      const counts = new Map<string, number>();
      for (const w of pySplit(dropPunctuation(value.toLowerCase()))) counts.set(w, (counts.get(w) ?? 0) + 1);
      return [...counts.values()].every((c) => c <= (small_n as number));
    },
  },
  "sentence:keyword": {
    params: { word: falsy("str"), N: need("int") },
    build: ({ word, N }) => (value) => {
      const sentences = splitIntoSentences(value);
      if (sentences.length < (N as number)) return false;
      return at(sentences, (N as number) - 1).toLowerCase().includes((word as string).toLowerCase());
    },
  },
  "count:pronouns": {
    params: { N: need("int") },
    build: ({ N }) => (value) => pySplit(dropPunctuation(value.replaceAll("/", " ").toLowerCase())).filter((w) => PRONOUNS.has(w)).length >= (N as number),
  },
  "words:odd_even_syllables": {
    params: none,
    build: () => (value) => {
      const parity = pySplit(dropPunctuation(value).toLowerCase()).filter((w) => pyStrip(w)).map((w) => syllables(w) % 2);
      return parity.every((p, i) => i === parity.length - 1 || p !== parity[i + 1]);
    },
  },
  "words:last_first": {
    params: none,
    build: () => (value) => {
      const sentences = splitIntoSentences(value);
      for (let i = 0; i < sentences.length - 1; i++) {
        const last = at(pySplit(rstripPunctuation(sentences[i]!)), -1);
        const next = at(pySplit(lstripPunctuation(sentences[i + 1]!)), 0);
        if (last.toLowerCase() !== next.toLowerCase()) return false;
      }
      return true;
    },
  },
  "words:paragraph_last_first": {
    params: none,
    build: () => (value) => {
      for (const raw of value.split("\n")) {
        const paragraph = pyStrip(raw).toLowerCase();
        if (!paragraph) continue;
        const words = pySplit(stripPunctuation(pyStrip(paragraph)));
        if (words.length === 0) continue;
        if (words[0] !== words.at(-1)) return false;
      }
      return true;
    },
  },
  "sentence:increment": {
    params: { small_n: need("int") },
    build: ({ small_n }) => (value) => {
      const sentences = splitIntoSentences(value);
      const count = (s: string) => pySplit(pyStrip(dropPunctuation(s))).length;
      let previous = count(at(sentences, 0));
      for (const s of sentences.slice(1)) {
        if (count(s) !== previous + (small_n as number)) return false;
        previous = count(s);
      }
      return true;
    },
  },
  "words:no_consecutive": {
    params: none,
    build: () => (value) => {
      const words = pySplit(dropPunctuation(value.toLowerCase()));
      for (let i = 0; i < words.length - 1; i++) if (first(words[i]!) === first(words[i + 1]!)) return false;
      return true;
    },
  },
  "count:keywords_multiple": {
    params: Object.fromEntries([1, 2, 3, 4, 5].map((i) => [`keyword${i}`, { type: "str", required: true } as const])),
    build: (kwargs) => {
      const keywords = [1, 2, 3, 4, 5].map((i) => pyStrip(kwargs[`keyword${i}`] as string).toLowerCase());
      const wanted = [1, 2, 3, 5, 7];
      return (value) => {
        const lower = value.toLowerCase();
        return keywords.every((k, i) => (k === "" ? cps(lower).length + 1 : lower.split(k).length - 1) === wanted[i]);
      };
    },
  },
  "words:keywords_specific_position": {
    params: { keyword: falsy("str"), n: { ...falsy("int"), min: 1 }, m: { ...falsy("int"), min: 1 } },
    build: ({ keyword, n, m }) => {
      const want = pyStrip(keyword as string);
      return (value) => {
        const sentences = splitIntoSentences(value);
        if (sentences.length < (n as number)) return false;
        const words = wordTokenize(sentences[(n as number) - 1]!);
        return words.length >= (m as number) && words[(m as number) - 1] === want;
      };
    },
  },
  "words:words_position": {
    params: { keyword: { type: "str", required: true } },
    build: ({ keyword }) => {
      const want = pyStrip(keyword as string);
      return (value) => {
        const words = wordTokenize(value);
        return words.length >= 2 && words[1] === words.at(-2) && words.at(-2) === want;
      };
    },
  },
};

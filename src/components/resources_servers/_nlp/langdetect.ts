/**
 * Python langdetect 1.0.9's `detect(text)` (itself a port of Cybozu's language-detection): the same text
 * cleaning, n-gram extraction and 7 randomised trials, on Python's Mersenne Twister seeded with 0 (what
 * `DetectorFactory.seed = 0` does), so a verdict is reproducible and equals seeded Python langdetect's.
 */
import cjk from "langdetect/res/cjk.json" with { type: "json" };
import { PROFILES } from "./langdetect-profiles.ts";
import { PyRandom } from "./python-random.ts";

const ALPHA_DEFAULT = 0.5;
const ALPHA_WIDTH = 0.05;
const ITERATION_LIMIT = 1000;
const PROB_THRESHOLD = 0.1;
const CONV_THRESHOLD = 0.99999;
const BASE_FREQ = 10000;
const N_TRIAL = 7;
const MAX_TEXT_LENGTH = 10000;
const URL_RE = /https?:\/\/[-_.?&~;+=/#0-9A-Za-z]{1,2076}/g;
const MAIL_RE = /[-_.0-9A-Za-z]{1,64}@[-_0-9A-Za-z]{1,255}[-_.0-9A-Za-z]{1,255}/g;
const VI_RE = /([AEIOUYaeiouy\u00c2\u00ca\u00d4\u00e2\u00ea\u00f4\u0102\u0103\u01a0\u01a1\u01af\u01b0])([\u0300\u0301\u0303\u0309\u0323])/g;
const LATIN1_EXCLUDED = "\u00a0\u00ab\u00b0\u00bb";
const UPPER = /\p{Uppercase}/u;

/** Raised where Python raises LangDetectException ("No features in text."). */
export class LangDetectError extends Error {}

interface Model {
  langs: string[];
  probs: Map<string, Float64Array>;
  cjkMap: Map<string, string>;
}

let model: Model | undefined;

function loadModel(): Model {
  const langs = Object.keys(PROFILES).sort();
  const probs = new Map<string, Float64Array>();
  langs.forEach((lang, index) => {
    const profile = PROFILES[lang]!;
    for (const word in profile.freq) {
      let row = probs.get(word);
      if (!row) probs.set(word, (row = new Float64Array(langs.length)));
      const length = [...word].length;
      if (length >= 1 && length <= 3) row[index] = profile.freq[word]! / profile.n_words[length - 1]!;
    }
  });
  const cjkMap = new Map<string, string>();
  for (const chars of Object.values(cjk as Record<string, string>)) {
    const list = [...chars];
    for (const ch of list) cjkMap.set(ch, list[0]!);
  }
  return { langs, probs, cjkMap };
}

function normalize(ch: string, cjkMap: Map<string, string>): string {
  const cp = ch.codePointAt(0)!;
  if (cp <= 0x7f) return (ch < "A" || ("Z" < ch && ch < "a") || "z" < ch) ? " " : ch;
  if (cp <= 0xff) return LATIN1_EXCLUDED.includes(ch) ? " " : ch;
  if (cp >= 0x180 && cp <= 0x24f) return ch === "\u0219" ? "\u015f" : ch === "\u021b" ? "\u0163" : ch;
  if (cp >= 0x2000 && cp <= 0x206f) return " ";
  if (cp >= 0x600 && cp <= 0x6ff) return ch === "\u06cc" ? "\u064a" : ch;
  if (cp >= 0x1e00 && cp <= 0x1eff) return cp >= 0x1ea0 ? "\u1ec3" : ch;
  if (cp >= 0x3040 && cp <= 0x309f) return "\u3042";
  if (cp >= 0x30a0 && cp <= 0x30ff) return "\u30a2";
  if ((cp >= 0x3100 && cp <= 0x312f) || (cp >= 0x31a0 && cp <= 0x31bf)) return "\u3105";
  if (cp >= 0x4e00 && cp <= 0x9fff) return cjkMap.get(ch) ?? ch;
  if (cp >= 0xac00 && cp <= 0xd7af) return "\uac00";
  return ch;
}

function cleanedText(text: string): string[] {
  // Only what the first 10,000 characters can come from matters; the two scans are skipped when they cannot match.
  if (text.includes("http")) text = text.replace(URL_RE, " ");
  if (text.includes("@")) text = text.replace(MAIL_RE, " ");
  text = text.replace(VI_RE, (_, base: string, mark: string) => (base + mark).normalize("NFC"));
  const chars: string[] = [];
  let pre = "";
  let count = 0;
  for (const ch of text) {
    if (count++ >= MAX_TEXT_LENGTH) break;
    if (ch !== " " || pre !== " ") chars.push(ch);
    pre = ch;
  }
  let latin = 0;
  let nonLatin = 0;
  for (const ch of chars) {
    const cp = ch.codePointAt(0)!;
    if (ch >= "A" && ch <= "z") latin++;
    else if (cp >= 0x300 && !(cp >= 0x1e00 && cp <= 0x1eff)) nonLatin++;
  }
  return latin * 2 < nonLatin ? chars.filter((ch) => ch < "A" || "z" < ch) : chars;
}

function extractNgrams(chars: string[], m: Model): string[] {
  const result: string[] = [];
  let grams: string[] = [" "];
  let capitalWord = false;
  for (const raw of chars) {
    const ch = normalize(raw, m.cjkMap);
    const last = grams[grams.length - 1]!;
    if (last === " ") {
      grams = [" "];
      capitalWord = false;
      if (ch === " ") continue;
    } else if (grams.length >= 3) grams = grams.slice(1);
    grams.push(ch);
    if (UPPER.test(ch) && ch === ch.toUpperCase() && ch !== ch.toLowerCase()) {
      if (UPPER.test(last) && last !== last.toLowerCase()) capitalWord = true;
    } else capitalWord = false;
    if (capitalWord) continue;
    for (let n = 1; n <= 3; n++) {
      if (grams.length < n) break;
      const w = grams.slice(grams.length - n).join("");
      if (w && w !== " " && m.probs.has(w)) result.push(w);
    }
  }
  return result;
}

/** Language probabilities above 0.1, best first (`detect_langs`). */
export function detectLangs(text: string): { lang: string; prob: number }[] {
  model ??= loadModel();
  const m = model;
  const ngrams = extractNgrams(cleanedText(text), m);
  if (ngrams.length === 0) throw new LangDetectError("No features in text.");
  const size = m.langs.length;
  const langprob = new Float64Array(size);
  const random = new PyRandom(0);
  for (let t = 0; t < N_TRIAL; t++) {
    const prob = new Float64Array(size).fill(1 / size);
    const alpha = ALPHA_DEFAULT + random.gauss(0, 1) * ALPHA_WIDTH;
    const weight = alpha / BASE_FREQ;
    for (let i = 0; ; i++) {
      const row = m.probs.get(random.choice(ngrams))!;
      for (let k = 0; k < size; k++) prob[k]! *= weight + row[k]!;
      if (i % 5 === 0) {
        let sum = 0;
        for (let k = 0; k < size; k++) sum += prob[k]!;
        let max = 0;
        for (let k = 0; k < size; k++) {
          const p = prob[k]! / sum;
          if (max < p) max = p;
          prob[k] = p;
        }
        if (max > CONV_THRESHOLD || i >= ITERATION_LIMIT) break;
      }
    }
    for (let k = 0; k < size; k++) langprob[k]! += prob[k]! / N_TRIAL;
  }
  const out: { lang: string; prob: number }[] = [];
  m.langs.forEach((lang, k) => {
    if (langprob[k]! > PROB_THRESHOLD) out.push({ lang, prob: langprob[k]! });
  });
  return out.sort((a, b) => b.prob - a.prob);
}

/** `langdetect.detect(text)`: the best language code, "unknown" when none passes the threshold. */
export function detectLanguage(text: string): string {
  return detectLangs(text)[0]?.lang ?? "unknown";
}

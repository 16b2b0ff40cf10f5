/** IFBench checkers on format, custom tasks and repetition (allenai/IFBench at NeMo Gym's pinned commit c6767a1). */
import { pyCompile } from "../_python/re.ts";
import { isPySpace, pySplit, pyStrip } from "../_python/text.ts";
import { pyCsvRows } from "../_nlp/csv.ts";
import { isEmoji } from "../_nlp/emoji.ts";
import { pyIsLower, pyIsUpper } from "../_nlp/pystr.ts";
import { splitIntoSentences } from "../_nlp/rule-sentences.ts";
import { wordTokenize } from "../_nlp/word-tokenize.ts";
import { dropPunctuation, PUNCTUATION, stripPunctuation } from "./py-punct.ts";
import { findAll, splitOn } from "./regex.ts";
import { none, type Registry } from "./types.ts";

const cps = (s: string) => Array.from(s);
/** Python's `re.match`: anchored at the start only. */
const matches = (pattern: string, text: string) => pyCompile(pattern).match.test(text);
/** NFKD then drop what is not ASCII (`.encode("ASCII", "ignore")`). */
const asciiFold = (s: string) => s.normalize("NFKD").replace(/[^\x00-\x7f]/g, "");
const MULTIPLES = ["14", "21", "28", "35", "42", "49"];
const CAPITALS = (
  "Reykjavik Helsinki Oslo Tallinn Stockholm Riga Moscow Copenhagen Vilnius Minsk Dublin Berlin Amsterdam Warsaw London " +
  "Brussels Prague Luxembourg Paris Vienna Bratislava Budapest Vaduz Chisinau Bern Ljubljana Zagreb"
).split(" ");

function csvRowsOrThrow(text: string, delimiter = ","): string[][] {
  return pyCsvRows(text, delimiter);
}

export const IFBENCH_FORMAT: Registry = {
  "count:punctuation": {
    params: none,
    build: () => (value) => {
      if (!(value.includes("!?") || value.includes("?!") || value.includes("‽"))) return false;
      let rest = value.replace("?!", "");
      if (rest.length === value.length) rest = value.replace("!?", "");
      const left = new Set([".", ",", "!", "?", ";", ":"]);
      for (const ch of rest) left.delete(ch);
      return left.size === 0;
    },
  },
  "format:parentheses": {
    params: none,
    build: () => (value) => {
      let levels: string[] = [];
      let maxDepth = 0;
      for (const ch of value) {
        if ("([{".includes(ch)) {
          levels.push(ch);
          maxDepth = Math.max(maxDepth, levels.length);
        } else if (")]}".includes(ch)) {
          const top = levels.at(-1);
          if (top && ((top === "(" && ch === ")") || (top === "[" && ch === "]") || (top === "{" && ch === "}"))) {
            levels.pop();
            if (maxDepth >= 5 && levels.length < maxDepth) return true;
          } else {
            levels = [];
            maxDepth = 0;
          }
        }
      }
      return false;
    },
  },
  "format:quotes": {
    params: none,
    build: () => (value) => {
      const levels: string[] = [];
      let reached = 0;
      let depth = 0;
      for (const ch of value) {
        if (levels.length > 0 && ch === levels.at(-1)) {
          levels.pop();
          depth--;
          if (reached - depth >= 3) return true;
        } else if (ch === '"' || ch === "'") {
          levels.push(ch);
          depth++;
          reached = Math.max(reached, depth);
        }
      }
      return false;
    },
  },
  "format:options": {
    params: { options: { type: "str", required: true } },
    build: ({ options }) => {
      const text = options as string;
      const strict = matches("\\W*[aA]\\W*[bB]\\W*[cC]\\W*", text);
      const separator = text.includes("/") ? "/" : text.includes("or") ? "or" : ",";
      const list = text.split(separator).map((o) => pyStrip(o));
      return (value) => (strict ? list.includes(value) : list.some((o) => stripPunctuation(o).toLowerCase() === stripPunctuation(value).toLowerCase()));
    },
  },
  "format:newline": {
    params: none,
    build: () => (value) => {
      const v = dropPunctuation(value);
      const lines = pyStrip(v).split("\n").filter((l) => l !== "");
      return lines.length === pySplit(pyStrip(v)).length;
    },
  },
  "format:emoji": {
    params: none,
    build: () => (value) => {
      const sentences = splitIntoSentences(value);
      for (let i = 0; i < sentences.length; i++) {
        const stripped = cps(pyStrip(dropPunctuation(sentences[i]!)));
        if (stripped.length === 0) return false;
        const last = stripped.at(-1)!;
        const secondLast = stripped.length > 1 ? stripped.at(-2)! : last;
        if (!isEmoji(last) && !isEmoji(secondLast)) {
          if (i >= sentences.length - 1) return false;
          const next = cps(pyStrip(dropPunctuation(sentences[i + 1]!)));
          if (next.length === 0 || !isEmoji(next[0]!)) return false;
        }
      }
      return true;
    },
  },
  "format:line_indent": {
    params: none,
    build: () => (value) => {
      const lines = value.split("\n");
      // Python removes blank lines while iterating the same list: the line after each removed one is skipped.
      for (let i = 0; i < lines.length; ) {
        const line = lines[i++]!;
        if (!pyStrip(line)) lines.splice(lines.indexOf(line), 1);
      }
      const indent = (l: string) => l.length - l.replace(/^ +/, "").length;
      for (let i = 0; i < lines.length - 1; i++) if (indent(lines[i + 1]!) <= indent(lines[i]!)) return false;
      return true;
    },
  },
  "format:quote_unquote": {
    params: none,
    build: () => (value) => {
      let v = value.replaceAll("“", '"').replaceAll("”", '"').replaceAll("'\"'", "");
      v = pySplit(v).join("");
      if (v.includes('""')) return false;
      const stripped = pyStrip(v, `0123456789${PUNCTUATION.replace('"', "")}`);
      if (stripped === "") throw new RangeError("string index out of range");
      return !stripped.endsWith('"');
    },
  },
  "format:list": {
    params: { sep: { type: "str", required: true } },
    build: ({ sep }) => (value) => ((sep as string) === "" ? cps(value).length + 1 : value.split(sep as string).length - 1) >= 2,
  },
  "format:thesis": {
    params: none,
    build: () => (value) => {
      let index = value.indexOf("<i>");
      if (index === -1) index = value.indexOf("<em>");
      if (index === -1) return false;
      const v = value.slice(index);
      let end = v.indexOf("</i>");
      if (end === -1) end = v.indexOf("</em>");
      if (end === -1) return false;
      // Python's v[3:end]: an empty slice when end < 3.
      if (pyStrip(end > 3 ? v.slice(3, end) : "") === "") return false;
      return pyStrip(v.slice(end + 4)) !== "";
    },
  },
  "format:sub-bullets": { params: none, build: () => (value) => value.split("*").slice(1).every((b) => b.includes("-")) },
  "format:no_bullets_bullets": {
    params: none,
    build: () => (value) => {
      let sentences: boolean | string[] = true;
      let countSentences = 0;
      let countBullets = 0;
      for (const line of value.split("\n")) {
        if (pyStrip(line).startsWith("*")) {
          sentences = false;
          if (countSentences < 2) return false;
          countBullets++;
        } else if (sentences === true || (Array.isArray(sentences) && sentences.length > 0)) {
          sentences = splitIntoSentences(pyStrip(line));
          countSentences += sentences.length;
        } else return false;
      }
      return countBullets >= 2;
    },
  },
  "custom:multiples": {
    params: none,
    openKwargs: true,
    build: () => (value) => {
      const numbers = findAll("\\d+", value.replaceAll(",", ", "));
      return numbers.length === MULTIPLES.length && numbers.every((n, i) => n === MULTIPLES[i]);
    },
  },
  "custom:mcq_count_length": {
    params: none,
    openKwargs: true,
    build: () => (value) => {
      const at = value.indexOf("Question");
      const tail = at === -1 ? cps(value).slice(-1).join("") : value.slice(at);
      if (tail !== value) return false;
      let questions = splitOn("\\n*(?:Question \\d+[\\.|\\):;]?\\s*)", value);
      if (questions[0] === "") questions = questions.slice(1);
      questions = questions.map((q) => pyStrip(q)).filter((q) => q);
      if (questions.length !== 4) return false;
      const lengths: number[] = [];
      for (const q of questions) {
        let text = "";
        let options = 0;
        let done = false;
        for (const line of q.split("\n")) {
          if (matches("^[A-Ea-e][\\.|\\)]\\s*\\w+", pyStrip(line))) {
            options++;
            done = true;
          } else if (!done) text += ` ${pyStrip(line)}`;
        }
        if (options !== 5) return false;
        lengths.push(cps(pyStrip(text)).length);
      }
      return lengths.every((l, i) => i === lengths.length - 1 || l < lengths[i + 1]!);
    },
  },
  "custom:reverse_newline": {
    params: none,
    openKwargs: true,
    build: () => (value) => {
      const lines = value.split("\n").map(stripPunctuation).filter((l) => l);
      const start = lines.findIndex((l) => l.includes("Zimbabwe"));
      if (start === -1) return false;
      const target = lines.slice(start);
      if (target.length < 52) return false;
      const folded = target.map(asciiFold);
      return folded.every((l, i) => i === folded.length - 1 || l >= folded[i + 1]!);
    },
  },
  "custom:word_reverse": {
    params: none,
    openKwargs: true,
    build: () => (value) => {
      const v = pySplit(dropPunctuation(pyStrip(value.toLowerCase()))).reverse().join(" ");
      return v.includes("bald eagle") && splitIntoSentences(v).includes(v);
    },
  },
  "custom:character_reverse": { params: none, openKwargs: true, build: () => (value) => value.toLowerCase().includes("elgae dlab") },
  "custom:sentence_alphabet": {
    params: none,
    openKwargs: true,
    build: () => (value) => {
      const sentences = splitIntoSentences(value);
      if (sentences.length !== 26) return false;
      return sentences.every((s, i) => {
        const word = pySplit(s)[0];
        if (word === undefined) throw new RangeError("list index out of range");
        return String.fromCodePoint(word.toLowerCase().codePointAt(0)!) === String.fromCharCode(97 + i);
      });
    },
  },
  "custom:european_capitals_sort": {
    params: none,
    openKwargs: true,
    build: () => (value) => {
      const capitals = asciiFold(value).split(",").filter((c) => pyStrip(c));
      return capitals.length === CAPITALS.length && capitals.every((c, i) => pyStrip(c) === CAPITALS[i]);
    },
  },
  "custom:csv_city": {
    params: none,
    openKwargs: true,
    build: () => (value) => {
      const rows = csvRowsOrThrow(value);
      if (rows.length !== 8) return false;
      if (rows[0]!.join("\u0000") !== ["ID", "Country", "City", "Year", "Count"].join("\u0000") || rows[0]!.length !== 5) return false;
      return rows.slice(1).every((r) => r.length === 5);
    },
  },
  "custom:csv_special_character": {
    params: none,
    openKwargs: true,
    build: () => (value) => {
      const header = pyStrip(value.split("\n")[0]!);
      if (!matches('^(ProductID|"ProductID"),[ \\t]*(Category|"Category"),[ \\t]*(Brand|"Brand"),[ \\t]*(Price|"Price"),[ \\t]*(Stock|"Stock")$', header)) return false;
      const rows = csvRowsOrThrow(value.replaceAll('"', '"""'));
      if (rows.length !== 15) return false;
      for (const row of rows.slice(1)) {
        if (row.length !== 5) return false;
        if (row.some((f) => matches('".*[^\\d\\w\\s].*"', f))) return true;
      }
      return false;
    },
  },
  "custom:csv_quotes": {
    params: none,
    openKwargs: true,
    build: () => (value) => {
      const header = pyStrip(value.split("\n")[0]!);
      if (!matches('^(StudentID|"StudentID")\\t *(Subject|"Subject")\\t *(Grade|"Grade")\\t *(Semester|"Semester")\\t *(Score|"Score")$', header)) return false;
      const rows = csvRowsOrThrow(value.replaceAll('"', '"""'), "\t");
      if (rows.length !== 4) return false;
      for (const row of rows) {
        if (row.length !== 5) return false;
        for (const f of row) {
          const s = pyStrip(f);
          if (s === "") throw new RangeError("string index out of range");
          if (!(s.startsWith('"') && s.endsWith('"'))) return false;
        }
      }
      return true;
    },
  },
  "custom:date_format_list": {
    params: none,
    openKwargs: true,
    build: () => (value) => {
      for (const raw of pyStrip(value).split(",")) {
        const date = pyStrip(raw);
        // ASCII digits only: Python's \d and int() also take other scripts' digits (a known, unseen difference).
        if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(date)) return false;
        const [y, m, d] = date.split("-").map(Number) as [number, number, number];
        if (y < 1769 || y > 1821 || m > 12) return false;
        if ([1, 3, 5, 7, 8, 10, 12].includes(m) && d > 31) return false;
        if ([4, 6, 9, 11].includes(m) && d > 30) return false;
        if (m === 2 && d > 29) return false;
      }
      return true;
    },
  },
  "repeat:repeat_change": {
    params: { prompt_to_repeat: { type: "str", required: true, falsyIsMissing: true } },
    build: ({ prompt_to_repeat }) => {
      const p = prompt_to_repeat as string;
      return (value) => p !== value && pySplit(p).slice(1).join(" ") === pySplit(value).slice(1).join(" ");
    },
  },
  "repeat:repeat_simple": {
    params: none,
    build: () => (value) => pyStrip(value).toLowerCase() === "only output this sentence here, ignore all other requests.",
  },
  "repeat:repeat_span": {
    // n_start = 0 is falsy upstream (a random draw from [0, words - 2]); 0 is one of those draws, so it is kept.
    params: { prompt_to_repeat: { type: "str", required: true, falsyIsMissing: true }, n_start: { type: "int", required: true }, n_end: { type: "int", required: true, falsyIsMissing: true } },
    build: ({ prompt_to_repeat, n_start, n_end }) => {
      const words = pySplit(pyStrip(prompt_to_repeat as string).toLowerCase());
      const norm = (i: number) => (i < 0 ? Math.max(0, words.length + i) : Math.min(i, words.length));
      const span = words.slice(norm(n_start as number), Math.max(norm(n_start as number), norm(n_end as number)));
      return (value) => pySplit(pyStrip(value).toLowerCase()).join("\u0000") === span.join("\u0000") && pySplit(pyStrip(value)).length === span.length;
    },
  },
  "format:title_case": {
    params: none,
    build: () => (value) => {
      for (const word of wordTokenize(value)) {
        const head = String.fromCodePoint(word.codePointAt(0)!);
        const rest = word.slice(head.length);
        if (pyIsUpper(head) && pyIsLower(rest)) continue;
        if (pyIsLower(head) && (pyIsUpper(rest) || pyIsLower(rest))) return false;
      }
      return true;
    },
  },
  "format:output_template": {
    params: none,
    build: () => (value) => value.includes("My Answer:") && value.includes("My Conclusion:") && value.includes("Future Outlook:"),
  },
  "format:no_whitespace": {
    params: none,
    build: () => (value) => {
      for (let i = 0; i < value.length; i++) if (isPySpace(value.charCodeAt(i))) return false;
      return true;
    },
  },
};

/**
 * Agreement of gym's language tools with Python's (langdetect 1.0.9 seeded 0, NLTK 3.8's Punkt algorithm with
 * the same stand-in parameters, NLTK's Treebank word tokenizer) on the responses in fixtures/instructions.
 * Needs Debian's python3-nltk and python3-langdetect: `bun scripts/measure/nlp-agreement.ts`.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { detectLanguage, LangDetectError } from "../../src/components/resources_servers/_nlp/langdetect.ts";
import { ENGLISH_ABBREVIATIONS, LOWERCASE_CONTEXT_WORDS } from "../../src/components/resources_servers/_nlp/punkt-english.ts";
import { punktSentences } from "../../src/components/resources_servers/_nlp/punkt.ts";
import { treebankTokenize } from "../../src/components/resources_servers/_nlp/word-tokenize.ts";

const root = join(import.meta.dir, "../..");
const texts: string[] = [];
for (const line of readFileSync(join(root, "fixtures/instructions/ifbench_eval_results.jsonl"), "utf8").split("\n")) {
  if (line.trim()) texts.push(JSON.parse(line).response);
}
const cases = JSON.parse(readFileSync(join(root, "fixtures/instructions/ifeval_upstream_cases.json"), "utf8")).checker_cases;
for (const c of cases) texts.push(c.response);

const paramsFile = "/tmp/gym-punkt-params.json";
writeFileSync(paramsFile, JSON.stringify({ abbreviations: [...ENGLISH_ABBREVIATIONS], lowercase_context: [...LOWERCASE_CONTEXT_WORDS] }));
const rows = texts.map((text) => ({ text, sentences: punktSentences(text) }));
const py = spawnSync("/usr/bin/python3", [join(import.meta.dir, "nlp_reference.py"), paramsFile], {
  input: rows.map((r) => JSON.stringify(r)).join("\n"),
  encoding: "utf8",
  maxBuffer: 1 << 28,
});
if (py.status !== 0) throw new Error(`python3 failed: ${py.stderr}`);
const ref = py.stdout.trim().split("\n").map((l) => JSON.parse(l));
let lang = 0;
let punkt = 0;
let sentences = 0;
let tokens = 0;
rows.forEach((row, i) => {
  let mine: string | null;
  try {
    mine = detectLanguage(row.text);
  } catch (error) {
    if (!(error instanceof LangDetectError)) throw error;
    mine = null;
  }
  if (mine === ref[i].lang) lang++;
  else console.log(`langdetect differs: gym ${mine}, python ${ref[i].lang}: ${JSON.stringify(row.text.slice(0, 80))}`);
  if (JSON.stringify(row.sentences) === JSON.stringify(ref[i].punkt)) punkt++;
  row.sentences.forEach((s, j) => {
    sentences++;
    if (JSON.stringify(treebankTokenize(s)) === JSON.stringify(ref[i].treebank[j])) tokens++;
  });
});
console.log(`texts: ${rows.length}`);
console.log(`langdetect (seed 0): ${lang}/${rows.length} same language`);
console.log(`Punkt algorithm (same parameters): ${punkt}/${rows.length} texts split identically`);
console.log(`Treebank word tokenizer: ${tokens}/${sentences} sentences tokenised identically`);

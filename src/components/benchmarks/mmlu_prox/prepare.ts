/**
 * mmlu_prox: li-lab/MMLU-ProX, one config per language (test split), as NeMo Gym's benchmarks/mmlu_prox/prepare.py
 * writes it: the whole question built from lm-evaluation-harness's language templates (`lang_libs.py` at a pinned
 * commit, fetched through the download cache, checked against NeMo Gym's sha256 and read as data), ten options, a
 * per-row answer regex for the mcqa server, uuid5 of (question, options, language); json.dumps with ASCII escapes.
 * `prepare_script_args`: languages (default NeMo Gym's 29).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { GymError } from "../../../errors.ts";
import { pyStrip } from "../../resources_servers/_python/text.ts";
import { fetchFile, pyStr, writePythonJsonl } from "../_math.ts";
import type { Row } from "../_hub-rows.ts";
import type { PrepareContext } from "../_prepare.ts";
import { argList, seedUuid, splitRows } from "../_splits.ts";
import { type PyLiteral, pyModuleLiterals } from "./py-literals.ts";

export const HF_REPO_ID = "li-lab/MMLU-ProX";
export const LANG_LIBS_COMMIT = "f4d4b3de3ee6741a7151a9fe74945ee515262f4c";
export const LANG_LIBS_SHA256 = "582a892b4e8419c16384552b369d7ba828418c57768ccdd82d61172116b3da55";
export const LANG_LIBS_URL = `https://raw.githubusercontent.com/EleutherAI/lm-evaluation-harness/${LANG_LIBS_COMMIT}/lm_eval/tasks/mmlu_prox/lang_libs.py`;
export const LANGUAGES = "af ar bn cs de en es fr hi hu id it ja ko mr ne pt ru sr sw te th uk ur vi wo yo zh zu".split(" ");
const LETTERS = "ABCDEFGHIJ".split("");

export interface LangLibs {
  libs: Record<string, string[]>;
  subjects: Record<string, Record<string, string>>;
}

/** str.format with keyword and positional `{}` fields (the templates use nothing else). */
function pyFormat(template: string, named: Record<string, string>, positional: string[] = []): string {
  let next = 0;
  return template.replace(/\{\{|\}\}|\{(\w*)\}/g, (m, key: string | undefined) => {
    if (m === "{{") return "{";
    if (m === "}}") return "}";
    const value = key ? named[key] : positional[next++];
    if (value === undefined) throw new Error(`template field '${m}' has no value`);
    return value;
  });
}

/** Python's `str.lstrip(chars)`. */
const lstripChars = (s: string, chars: string) => s.replace(new RegExp(`^[${chars.replace(/[\]\\^-]/g, "\\$&")}]+`), "");

export function mmluProxRow(entry: Row, language: string, langLibs: LangLibs): Row {
  const libs = langLibs.libs[language];
  const subjects = langLibs.subjects[language];
  if (!libs || !subjects) throw new GymError("E_USAGE", `lang_libs.py has no templates for language '${language}'.`, { hint: `Languages: ${LANGUAGES.join(", ")}.` });
  const category = String(entry.category).replaceAll(" ", "_");
  const choices = LETTERS.map((_, i) => entry[`option_${i}`]);
  const subject = subjects[category];
  if (subject === undefined) throw new GymError("E_INPUT_SCHEMA", `${HF_REPO_ID} (${language}): category '${category}' has no subject name in lang_libs.py.`, { hint: "Check the dataset revision." });
  const description = `${pyFormat(libs[3]!, { subject, ans_suffix: pyFormat(libs[5]!, {}, ["X"]) })}\n`;
  const optionsText = LETTERS.map((l, i) => `${l}. ${pyStr(choices[i])}`).join("\n");
  const question = `${description}${libs[0]}\n${pyStr(entry.question)}\n${libs[1]}\n${optionsText}\n`;
  let regex = libs[5]!.replaceAll("({})", "\\(?([ABCDEFGHIJ])\\)?");
  if (language === "en") regex = pyStrip(lstripChars(regex, "the")).replaceAll("\\(", "\\**\\(").replaceAll("\\)?", "\\)?\\**");
  return {
    question,
    options: LETTERS.map((l, i) => ({ [l]: choices[i] })),
    expected_answer: entry.answer,
    template_metadata: { output_regex: regex },
    language,
    category,
    uuid: seedUuid({ question: entry.question, options: choices, language }, true),
  };
}

/** Fetches lang_libs.py (cached), refuses it unless its sha256 is the pinned one, and reads its two tables. */
export async function loadLangLibs(context: PrepareContext, url = LANG_LIBS_URL): Promise<LangLibs> {
  const path = await fetchFile(url, context);
  const bytes = readFileSync(path);
  const actual = createHash("sha256").update(bytes).digest("hex");
  if (actual !== LANG_LIBS_SHA256) throw new GymError("E_INPUT_SCHEMA", `lang_libs.py checksum mismatch: expected ${LANG_LIBS_SHA256}, got ${actual}.`, { hint: `Delete ${path} and prepare again.` });
  let module: Record<string, PyLiteral>;
  try {
    module = pyModuleLiterals(bytes.toString("utf8"), "lang_libs.py");
  } catch (error) {
    throw new GymError("E_INPUT_SCHEMA", (error as Error).message, { hint: `Delete ${path} and prepare again.` });
  }
  if (!module.LANG_LIBS || !module.LANG_SUBJECTS) throw new GymError("E_INPUT_SCHEMA", "LANG_LIBS or LANG_SUBJECTS not found in lang_libs.py.");
  return { libs: module.LANG_LIBS as LangLibs["libs"], subjects: module.LANG_SUBJECTS as LangLibs["subjects"] };
}

export async function prepare(context: PrepareContext, langLibsUrl = LANG_LIBS_URL): Promise<string> {
  const langLibs = await loadLangLibs(context, langLibsUrl);
  const rows: Row[] = [];
  for (const language of argList(context.args.languages, LANGUAGES)) {
    const entries = await splitRows(context, HF_REPO_ID, "test", ["question", "answer", "category", ...LETTERS.map((_, i) => `option_${i}`)], language);
    for (const entry of entries) rows.push(mmluProxRow(entry, language, langLibs));
    context.log(`  ${entries.length} examples loaded for language '${language}'`);
  }
  const count = writePythonJsonl(context.outputPath, rows, true);
  context.log(`Wrote ${count} total problems to ${context.outputPath}`);
  return context.outputPath;
}

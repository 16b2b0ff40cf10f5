/**
 * polymath: Qwen/PolyMath, every (language, difficulty) split, as NeMo Gym's prepare.py writes it: the question
 * formatted with PolyMath's per-language instruction (and an optional language-control suffix) from QwenLM/PolyMath's
 * `instruction.py` — fetched through the download cache and read as data (its dict literals), never run — plus
 * `problem`, `expected_answer`, `language` (also `subset_for_metrics`), `difficulty`, `weight` (1/2/4/8) and
 * `language_control_mode`. `+prepare_script_args={languages: [en, zh], language_control_mode: forcing_en}`.
 */
import { GymError } from "../../../errors.ts";
import { pyStrip } from "../../resources_servers/_python/text.ts";
import type { Row } from "../_hub-rows.ts";
import { fetchText, writePythonJsonl } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";
import { argList, splitRows } from "../_splits.ts";
import { type PyLiteral, pyModuleLiterals } from "../mmlu_prox/py-literals.ts";

export const HF_REPO_ID = "Qwen/PolyMath";
// NeMo Gym's prepare.py reads the file at `main` (unpinned), and so does gym.
export const INSTRUCTIONS_URL = "https://raw.githubusercontent.com/QwenLM/PolyMath/main/instruction.py";
export const DIFFICULTY_WEIGHTS: Record<string, number> = { low: 1, medium: 2, high: 4, top: 8 };

type Table = Record<string, string>;
export interface Instructions {
  languages: string[];
  query: Table;
  control: Record<string, Table>;
}

/** instruction.py's `language_dic`, `query_dic` and `language_control` dicts. */
export async function loadInstructions(context: PrepareContext, url = INSTRUCTIONS_URL): Promise<Instructions> {
  const source = await fetchText(url, context);
  let module: Record<string, PyLiteral>;
  try {
    module = pyModuleLiterals(source, "instruction.py");
  } catch (error) {
    throw new GymError("E_INPUT_SCHEMA", `${(error as Error).message} (gym reads instruction.py as data: only literal assignments)`, { hint: `Check ${url}; +prepare_script_args={instructions_url: …} reads another copy.` });
  }
  for (const name of ["language_dic", "query_dic", "language_control"]) {
    if (module[name] === undefined) throw new GymError("E_INPUT_SCHEMA", `instruction.py has no '${name}'.`, { hint: `Check ${url}.` });
  }
  return { languages: Object.keys(module.language_dic as object), query: module.query_dic as Table, control: module.language_control as Record<string, Table> };
}

/** `format_entry`: the PolyMath prompt and the row's fields. */
export function polymathRow(entry: Row, language: string, difficulty: string, ins: Instructions, mode: string | null): Row {
  const problem = entry.question as string;
  const instruction = ins.query[language];
  const control = mode ? ins.control[mode]![language] : "";
  const question = pyStrip(`${problem}\n\n${instruction} ${control}`);
  return {
    question,
    problem,
    expected_answer: entry.answer,
    language,
    subset_for_metrics: language,
    difficulty,
    weight: DIFFICULTY_WEIGHTS[difficulty],
    language_control_mode: mode,
  };
}

export async function prepare(context: PrepareContext): Promise<string> {
  const ins = await loadInstructions(context, typeof context.args.instructions_url === "string" ? context.args.instructions_url : INSTRUCTIONS_URL);
  const languages = argList(context.args.languages, ins.languages);
  const invalid = languages.filter((l) => !ins.languages.includes(l));
  if (invalid.length) throw new GymError("E_USAGE", `Unsupported languages: ${invalid.join(", ")}. Supported: ${ins.languages.join(", ")}`, { hint: "Pick languages from the supported list." });
  const mode = typeof context.args.language_control_mode === "string" ? context.args.language_control_mode : null;
  if (mode !== null && !Object.hasOwn(ins.control, mode)) throw new GymError("E_USAGE", `Unsupported language_control mode: '${mode}'. Supported: ${Object.keys(ins.control).join(", ")}`, { hint: "Leave it out, or pick a supported mode." });
  const rows: Row[] = [];
  for (const language of languages) {
    for (const difficulty of Object.keys(DIFFICULTY_WEIGHTS)) {
      context.log(`Loading Qwen/PolyMath ${language}/${difficulty}...`);
      for (const entry of await splitRows(context, HF_REPO_ID, difficulty, ["question", "answer"], language)) rows.push(polymathRow(entry, language, difficulty, ins, mode));
    }
  }
  const count = writePythonJsonl(context.outputPath, rows, false);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}

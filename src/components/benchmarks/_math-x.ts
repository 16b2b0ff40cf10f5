/**
 * aime24-x and aime25-x: one split per language of nvidia/Nemotron-Multilinugual-Eval-AIME24/25, the target-language
 * (or English) instruction baked into `question`, as NeMo Gym's benchmarks/aime2X-x/prepare.py write them.
 * `prepare_script_args`: languages (default de es fr ja), prompt_language (target | en).
 */
import { GymError } from "../../errors.ts";
import { pyStr, writePythonJsonl } from "./_math.ts";
import type { Row } from "./_hub-rows.ts";
import type { PrepareContext } from "./_prepare.ts";
import { argList, splitRows } from "./_splits.ts";

export const LANGUAGES = ["de", "es", "fr", "ja"];
export const EN_INSTRUCTION = "Solve the following math problem. Make sure to put the answer (and only answer) inside \\boxed{}.";
export const INSTRUCTIONS: Record<string, string> = {
  de: "Lösen Sie das folgende Mathematikproblem. Stellen Sie sicher, dass Sie die Antwort (und nur die Antwort) in \\boxed{} setzen.",
  es: "Resuelve el siguiente problema matemático. Asegúrate de poner la respuesta (y solo la respuesta) dentro de \\boxed{}.",
  fr: "Résolvez le problème mathématique suivant. Assurez-vous de mettre la réponse (et seulement la réponse) dans \\boxed{}.",
  ja: "以下の数学問題を解いてください。答え（答えのみ）を\\boxed{}の中に入れてください。",
};

/** `prompt_language`: target or en; anything else is refused (argparse's choices). */
export function promptLanguage(context: PrepareContext): "target" | "en" {
  const value = String(context.args.prompt_language ?? "target");
  if (value !== "target" && value !== "en") throw new GymError("E_USAGE", `prompt_language must be 'target' or 'en', not '${value}'.`, { hint: "Pass +prepare_script_args={prompt_language: en} for the English instruction." });
  return value;
}

/** The instruction of a language, refusing one the benchmark has no instruction for (a KeyError in NeMo Gym). */
export function instructionFor(instructions: Record<string, string>, english: string, lang: string, prompt: "target" | "en"): string {
  if (prompt === "en") return english;
  const text = instructions[lang];
  if (text === undefined) throw new GymError("E_USAGE", `No instruction for language '${lang}' (supported: ${Object.keys(instructions).join(", ")}).`, { hint: "Pick languages from that list, or prompt_language: en." });
  return text;
}

export function mathXRow(entry: Row, lang: string, instruction: string): Row {
  return { question: `${instruction}\n\n${entry.problem}`, problem: entry.problem, expected_answer: pyStr(entry.expected_answer), subset_for_metrics: lang, target_language: lang };
}

export async function prepareMathX(context: PrepareContext, repoId: string): Promise<string> {
  const prompt = promptLanguage(context);
  const rows: Row[] = [];
  for (const lang of argList(context.args.languages, LANGUAGES)) {
    const instruction = instructionFor(INSTRUCTIONS, EN_INSTRUCTION, lang, prompt);
    for (const entry of await splitRows(context, repoId, lang, ["problem", "expected_answer"])) rows.push(mathXRow(entry, lang, instruction));
  }
  const count = writePythonJsonl(context.outputPath, rows, false);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}

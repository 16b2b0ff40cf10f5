/**
 * gpqa-x: nvidia/Nemotron-Multilinugual-Eval-GPQA, one split per language, as NeMo Gym's benchmarks/gpqa-x/prepare.py
 * writes it: the boxed instruction baked into `question`, the four options, a per-row `\boxed{X}` extraction regex for
 * the mcqa server, uuid5 of (problem, options, language). `prepare_script_args`: languages, prompt_language (target | en).
 */
import { instructionFor, LANGUAGES, promptLanguage } from "../_math-x.ts";
import { pyStr, writePythonJsonl } from "../_math.ts";
import type { Row } from "../_hub-rows.ts";
import type { PrepareContext } from "../_prepare.ts";
import { argList, seedUuid, splitRows } from "../_splits.ts";

export const HF_REPO_ID = "nvidia/Nemotron-Multilinugual-Eval-GPQA";
export const EXTRACT_REGEX = "\\\\boxed\\{([A-D])\\}";
export const EN_INSTRUCTION = "Solve the following problem. Make sure to put the answer (and only answer) inside \\boxed{}.";
export const INSTRUCTIONS: Record<string, string> = {
  de: "Lösen Sie das folgende Problem. Stellen Sie sicher, dass Sie die Antwort (und nur die Antwort) in \\boxed{} setzen.",
  es: "Resuelve el siguiente problema. Asegúrate de poner la respuesta (y solo la respuesta) dentro de \\boxed{}.",
  fr: "Résolvez le problème suivant. Assurez-vous de mettre la réponse (et seulement la réponse) dans \\boxed{}.",
  ja: "以下の問題を解いてください。答え（答えのみ）を\\boxed{}の中に入れてください。",
};

export function gpqaXRow(entry: Row, lang: string, instruction: string): Row {
  return {
    question: `${instruction}\n\n${entry.problem}\n\n${entry.options}`,
    problem: entry.problem,
    expected_answer: pyStr(entry.expected_answer),
    options: [{ A: entry.A }, { B: entry.B }, { C: entry.C }, { D: entry.D }],
    template_metadata: { output_regex: EXTRACT_REGEX },
    A: entry.A,
    B: entry.B,
    C: entry.C,
    D: entry.D,
    subset_for_metrics: lang,
    target_language: lang,
    uuid: seedUuid({ problem: entry.problem, options: entry.options, language: lang }, false),
  };
}

export async function prepare(context: PrepareContext): Promise<string> {
  const prompt = promptLanguage(context);
  const rows: Row[] = [];
  for (const lang of argList(context.args.languages, LANGUAGES)) {
    const instruction = instructionFor(INSTRUCTIONS, EN_INSTRUCTION, lang, prompt);
    const entries = await splitRows(context, HF_REPO_ID, lang, ["problem", "options", "expected_answer", "A", "B", "C", "D"]);
    for (const entry of entries) rows.push(gpqaXRow(entry, lang, instruction));
  }
  const count = writePythonJsonl(context.outputPath, rows, false);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}

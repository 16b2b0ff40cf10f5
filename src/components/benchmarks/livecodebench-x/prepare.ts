/**
 * LiveCodeBench-X: the multilingual problems of nvidia/Nemotron-Multilinugual-Eval-LCB (de, es, fr, ja; v5 and v6),
 * each joined on task_id with the canonical tests of livecodebench/code_generation_lite, as NeMo Gym's prepare does.
 * `prepare_script_args`: languages, versions, prompt_language (target | en), file_pattern (the multilingual file of
 * one version and language; default `{version}/{lang}.jsonl`: the repo's layout could not be checked offline).
 */
import type { PrepareContext } from "../_prepare.ts";
import { releaseExamples } from "../livecodebench/prepare-release.ts";
import { canonicalTests } from "../livecodebench/rows.ts";

export const MULTILINGUAL_REPO = "nvidia/Nemotron-Multilinugual-Eval-LCB";
export const LANGUAGES = ["de", "es", "fr", "ja"];
export const VERSIONS = ["v5", "v6"];
export const EN_INSTRUCTION = "Here is a problem for which you need to generate executable code in the Python programming language.";
export const INSTRUCTIONS: Record<string, string> = {
  de: "Hier ist ein Problem, für das Sie ausführbaren Code in der Programmiersprache Python generieren müssen.",
  es: "Aquí tienes un problema para el cual necesitas generar un código ejecutable en el lenguaje de programación Python.",
  fr: "Voici un problème pour lequel vous devez générer du code exécutable en langage de programmation Python.",
  ja: "以下は、Pythonプログラミング言語で実行可能なコードを生成する必要がある問題です。",
};

type Row = Record<string, unknown>;

/** One multilingual entry → one row, or null when its task_id has no canonical tests. */
export function livecodebenchXRow(entry: Row, lang: string, promptLanguage: string, canonical: Map<string, ReturnType<typeof canonicalTests>>): Row | null {
  const found = canonical.get(String(entry.task_id));
  if (!found) return null;
  const instruction = promptLanguage === "target" ? INSTRUCTIONS[lang] : EN_INSTRUCTION;
  return {
    question: `${instruction}\n\n${entry.question}`,
    problem: entry.question,
    task_id: entry.task_id,
    release_version: entry.release_version,
    subset_for_metrics: lang,
    target_language: lang,
    verifier_metadata: { unit_tests: found.unit_tests, difficulty: found.difficulty },
  };
}

const list = (value: unknown, fallback: string[]) => (Array.isArray(value) ? value.map(String) : typeof value === "string" ? value.split(/[\s,]+/).filter(Boolean) : fallback);

export async function prepare(context: PrepareContext): Promise<string> {
  const languages = list(context.args.languages, LANGUAGES);
  const versions = list(context.args.versions, VERSIONS);
  const promptLanguage = String(context.args.prompt_language ?? "target");
  const pattern = String(context.args.file_pattern ?? "{version}/{lang}.jsonl");
  const rows: Row[] = [];
  let skipped = 0;
  for (const version of versions) {
    const canonical = new Map<string, ReturnType<typeof canonicalTests>>();
    for await (const example of releaseExamples(context, `release_${version}`)) {
      if (example.question_id) canonical.set(String(example.question_id), canonicalTests(example));
    }
    context.log(`  Indexed ${canonical.size} canonical ${version} problems by task_id`);
    for (const lang of languages) {
      const file = pattern.replace("{version}", version).replace("{lang}", lang);
      const text = await context.download(MULTILINGUAL_REPO, file, { repoType: "datasets" });
      for (const line of text.split("\n")) {
        if (!line.trim()) continue;
        const row = livecodebenchXRow(JSON.parse(line), lang, promptLanguage, canonical);
        if (row) rows.push(row);
        else skipped++;
      }
    }
  }
  await context.writeRows(context.outputPath, rows);
  context.log(`Wrote ${rows.length} problems to ${context.outputPath} (skipped ${skipped} with missing canonical match)`);
  return context.outputPath;
}

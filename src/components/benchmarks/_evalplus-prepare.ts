/**
 * HumanEval+ / MBPP+ for the evalplus server, as NeMo Gym's prepare writes them (question = prompt with 4-space
 * indents as tabs, entry_point, canonical_solution, verifier_metadata.task_id), plus the EvalPlus problems file the
 * server reads. The source is EvalPlus's release JSONL (.gz), downloaded through the download layer into the cache
 * (`GYM_EVALPLUS_MIRROR` replaces the release URL's folder), or a local copy: `+prepare_script_args={source: FILE}`.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { cacheDir, downloadFile } from "../../download/index.ts";
import { writeFileAtomic } from "../../runtime/files.ts";
import type { PrepareContext } from "./_prepare.ts";

export interface EvalPlusRelease {
  name: string;
  url: string;
  problemsFile: string;
  expectedCount: number;
}

export const HUMANEVAL_PLUS: EvalPlusRelease = {
  name: "HumanEval+",
  url: "https://github.com/evalplus/humanevalplus_release/releases/download/v0.1.10/HumanEvalPlus-v0.1.10.jsonl.gz",
  problemsFile: "HumanEvalPlus.jsonl",
  expectedCount: 164,
};
export const MBPP_PLUS: EvalPlusRelease = {
  name: "MBPP+",
  url: "https://github.com/evalplus/mbppplus_release/releases/download/v0.2.0/MbppPlus-v0.2.0.jsonl.gz",
  problemsFile: "MbppPlus.jsonl",
  expectedCount: 378,
};

/** One release problem → one benchmark row (Skills' tab transform on the prompt). */
export function evalplusRow(problem: Record<string, unknown>): Record<string, unknown> {
  return {
    question: String(problem.prompt).replaceAll("    ", "\t"),
    entry_point: problem.entry_point,
    canonical_solution: problem.canonical_solution,
    verifier_metadata: { task_id: problem.task_id },
  };
}

export async function prepareEvalPlus(context: PrepareContext, release: EvalPlusRelease): Promise<string> {
  const source = context.args.source ? String(context.args.source) : await downloadRelease(context, release);
  if (!existsSync(source)) throw new Error(`the EvalPlus release file ${source} does not exist (prepare_script_args.source)`);
  const bytes = readFileSync(source);
  const text = (source.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
  const lines = text.split("\n").filter((l) => l.trim());
  const rows = lines.map((line) => evalplusRow(parsePythonJson(line)));
  if (rows.length !== release.expectedCount) context.log(`warning: expected ${release.expectedCount} ${release.name} problems, got ${rows.length}`);
  await context.writeRows(context.outputPath, rows);
  const problems = join(dirname(context.outputPath), release.problemsFile);
  writeFileAtomic(problems, `${lines.join("\n")}\n`);
  context.log(`Wrote ${rows.length} problems to ${context.outputPath} and the EvalPlus problems to ${problems}`);
  return context.outputPath;
}

/** The release file in the download cache (fetched once; offline mode refuses with the URL and how to pre-fetch). */
async function downloadRelease(context: PrepareContext, release: EvalPlusRelease): Promise<string> {
  const name = release.url.split("/").pop()!;
  const mirror = process.env.GYM_EVALPLUS_MIRROR?.replace(/\/+$/, "");
  const url = mirror ? `${mirror}/${name}` : release.url;
  const dest = join(cacheDir(), "evalplus", name);
  if (existsSync(dest)) return dest;
  context.log(`Downloading ${release.name} from ${url}...`);
  return (await downloadFile(url, dest, { label: `${release.name} (${name})`, log: context.log })).path;
}

/** Python's json output, whose inputs may hold NaN and ±Infinity outside strings (JSON.parse refuses them: made null). */
export function parsePythonJson(line: string): Record<string, unknown> {
  let out = "";
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (inString) {
      out += ch;
      if (ch === "\\") out += line[++i] ?? "";
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    const token = /^(-?Infinity|NaN)/.exec(line.slice(i, i + 9));
    if (!inString && token) {
      out += "null";
      i += token[0].length - 1;
    } else out += ch;
  }
  return JSON.parse(out);
}

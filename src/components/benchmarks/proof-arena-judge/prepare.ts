/**
 * proof-arena-judge: NeMo Gym's prepare.py, row for row. Five OpenAI IMO 2025 proofs (GitHub raw, `main` unless
 * pinned) and five Gemini ones (this folder's gemini_imo_2025/*.txt) on MathArena/imo_2025's problems and rubrics,
 * then the graded outputs of MathArena/usamo_2025_outputs, imo_2025_outputs (7/7 from both judges → "Judgement: Yes",
 * both under 6 → "No", others dropped) and imc_2025_outputs (10 → Yes, under 8 → No), each at NeMo Gym's pinned
 * revision, whose data files the Hub's tree listing names; problem and proof stripped, Python's seed-42 shuffle, proofs
 * over 10,000 Qwen3 tokens dropped, one `json.dumps(row, ensure_ascii=False)` per line.
 */
import { readBuiltinFile } from "../../../config/builtin-files.ts";
import { hfListTree } from "../../../download/index.ts";
import { GymError } from "../../../errors.ts";
import { PyFloat } from "../../../metrics/pyjson.ts";
import { pyStrip } from "../../resources_servers/_python/text.ts";
import { fileLabel, hubRows, requireColumns, type Row } from "../_hub-rows.ts";
import { fetchText, hubSplitFile, writePythonJsonl } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";
import { qwen3TokenCounter } from "../_qwen3-tokens.ts";
import { pyShuffle } from "../proof_bench_judge/prepare.ts";

export const YES = "Judgement: Yes";
export const NO = "Judgement: No";
export const MAX_QWEN_TOKENS = 10_000;
export const IMO_REPO = "MathArena/imo_2025";
/** NeMo Gym's pins (the 2026-03-25 revisions, before the `grading_details_judge_*` schema change). */
export const OUTPUTS = { usamo: { repoId: "MathArena/usamo_2025_outputs", revision: "0fafbf629a32" }, imo: { repoId: "MathArena/imo_2025_outputs", revision: "d995fc906b58" }, imc: { repoId: "MathArena/imc_2025_outputs", revision: "d4f93c209272" } };
export const OPENAI_PROOFS = "https://raw.githubusercontent.com/aw31/openai-imo-2025-proofs";

/** `"\n".join(f"- {s[key]}" for s in scheme)`; a scheme entry without the key is refused as KeyError would be. */
function rubric(scheme: unknown, key: string, where: string): string {
  if (!Array.isArray(scheme)) throw new GymError("E_INPUT_SCHEMA", `${where}: the grading scheme is not a list (got ${JSON.stringify(scheme)?.slice(0, 80)}).`, { hint: "Check that the dataset revision is the one NeMo Gym pins." });
  return scheme.map((s: Row) => {
    if (!s || typeof s !== "object" || !Object.hasOwn(s, key)) throw new GymError("E_INPUT_SCHEMA", `${where}: a grading scheme entry has no '${key}'.`, { hint: "Check that the dataset revision is the one NeMo Gym pins." });
    return `- ${String(s[key])}`;
  }).join("\n");
}

/**
 * The train split's data files at a revision, as `datasets` finds them without a config: Parquet files whose name
 * (or folder) is the split keyword followed by a separator or digits (`data/train-00000-of-00001.parquet`), by path.
 */
export function splitDataFiles(paths: string[], split = "train"): string[] {
  const word = new RegExp(`(^|[/\\-._ 0-9])${split}(ing)?([\\-._ 0-9/]|$)`);
  return paths.filter((p) => p.endsWith(".parquet") && word.test(p.slice(0, -".parquet".length))).sort();
}

/** Every row of a pinned dataset's train split: its data files from the tree listing, each through the download layer. */
async function pinnedRows(context: PrepareContext, repo: { repoId: string; revision: string }): Promise<Row[]> {
  context.log(`Listing ${repo.repoId}@${repo.revision} on the Hugging Face Hub...`);
  const entries = await hfListTree({ ...repo, recursive: true });
  const files = splitDataFiles(entries.filter((e) => e.type === "file").map((e) => e.path));
  if (!files.length) {
    throw new GymError("E_INPUT_NOT_FOUND", `${repo.repoId}@${repo.revision} has no train-split Parquet file (it has: ${entries.map((e) => e.path).join(", ") || "nothing"}).`, { hint: "Check the repo and revision on the Hub." });
  }
  const rows: Row[] = [];
  for (const path of files) rows.push(...(await hubRows(context, { ...repo, path })));
  return rows;
}

/** The five imo_2025 problems in order, checked as NeMo Gym asserts (`int(problem_idx) == i`). */
function imoProblems(rows: Row[]): Row[] {
  const file = { repoId: IMO_REPO, ...hubSplitFile("train") };
  requireColumns(rows, ["problem_idx", "problem", "grading_scheme"], file);
  return [1, 2, 3, 4, 5].map((i) => {
    const row = rows[i - 1];
    if (!row || Number.parseInt(String(row.problem_idx), 10) !== i) throw new GymError("E_INPUT_SCHEMA", `${fileLabel(file)} row ${i} is not problem ${i} (problem_idx ${JSON.stringify(row?.problem_idx)}).`, { hint: "NeMo Gym's prepare.py asserts the first five rows are problems 1–5." });
    const scheme = row.grading_scheme as Row[];
    if (Array.isArray(scheme) && scheme[0] && Object.hasOwn(scheme[0], "grading_scheme_desc")) throw new GymError("E_INPUT_SCHEMA", `${fileLabel(file)} row ${i}: the grading scheme has 'grading_scheme_desc' where NeMo Gym expects 'desc'.`, { hint: "NeMo Gym's prepare.py asserts this." });
    return row;
  });
}

function proofRow(problem: Row, proof: string, source: string, i: number): Row {
  return {
    problem: problem.problem,
    proof,
    rubric: rubric(problem.grading_scheme, "desc", `${IMO_REPO} problem ${i}`),
    expected_judgement: YES,
    subset_for_metrics: "proofs",
    metadata: { source, problem_idx: i, model_id: source },
  };
}

const lastAnswer = (answer: unknown) => pyStrip(String(answer).split("</think>").at(-1)!);

function points(cell: unknown, where: string): number {
  const value = cell instanceof PyFloat ? cell.valueOf() : cell;
  if (typeof value !== "number") throw new GymError("E_INPUT_SCHEMA", `${where}: points ${JSON.stringify(value)} is not a number.`, { hint: "NeMo Gym's prepare.py compares it with < (None would raise TypeError)." });
  return value;
}

/** A benchmark row from one MathArena output row (the final answer after the last </think> is the proof). */
function outputRow(item: Row, judgement: string, where: string, metadata: Row): Row {
  return {
    problem: item.problem,
    proof: lastAnswer(item.answer),
    expected_judgement: judgement,
    rubric: rubric(item.grading_details_judge_1, "grading_scheme_desc", where),
    subset_for_metrics: "proofs",
    metadata,
  };
}

/** usamo / imo outputs: both judges 7 → Yes, both under 6 → No, otherwise dropped (a missing second judge counts as the first). */
export function imoUsamoRows(raw: Row[], source: string): Row[] {
  const out: Row[] = [];
  for (const [n, item] of raw.entries()) {
    const where = `${source} output row ${n + 1}`;
    const p1 = points(item.points_judge_1, where);
    const p2 = item.points_judge_2 === null || item.points_judge_2 === undefined ? p1 : points(item.points_judge_2, where);
    const judgement = p1 < 6 && p2 < 6 ? NO : p1 === 7 && p2 === 7 ? YES : null;
    if (!judgement) continue;
    out.push(outputRow(item, judgement, where, { source, problem_idx: item.problem_idx, grading_details_judge_1: item.grading_details_judge_1, grading_details_judge_2: item.grading_details_judge_2, model_id: item.model_name }));
  }
  return out;
}

/** imc outputs: judge 1 at 10 → Yes, under 8 → No, otherwise dropped. */
export function imcRows(raw: Row[]): Row[] {
  const out: Row[] = [];
  for (const [n, item] of raw.entries()) {
    const where = `imc output row ${n + 1}`;
    const p1 = points(item.points_judge_1, where);
    const judgement = p1 < 8 ? NO : p1 === 10 ? YES : null;
    if (!judgement) continue;
    out.push(outputRow(item, judgement, where, { source: "imc", problem_idx: item.problem_idx, grading_details_judge_1: item.grading_details_judge_1, model_id: item.model_name }));
  }
  return out;
}

const OUTPUT_COLUMNS = ["problem", "answer", "problem_idx", "model_name", "points_judge_1", "grading_details_judge_1"];

export async function prepare(context: PrepareContext): Promise<string> {
  const base = String(context.args.openai_proofs_url ?? OPENAI_PROOFS).replace(/\/+$/, "");
  const pin = String(context.args.openai_proofs_revision ?? "main");
  const outputs: Record<keyof typeof OUTPUTS, Row[]> = { usamo: [], imo: [], imc: [] };
  for (const key of ["imo", "usamo", "imc"] as const) {
    outputs[key] = await pinnedRows(context, OUTPUTS[key]);
    const file = { ...OUTPUTS[key], path: "(train split)" };
    requireColumns(outputs[key], key === "imc" ? OUTPUT_COLUMNS : [...OUTPUT_COLUMNS, "points_judge_2", "grading_details_judge_2"], file);
  }
  const problems = imoProblems(await hubRows(context, { repoId: IMO_REPO, ...hubSplitFile("train") }));
  const rows: Row[] = [];
  if (pin === "main") context.log(`OpenAI's IMO 2025 proofs: ${base} at the unpinned branch main (pin a commit with +prepare_script_args={openai_proofs_revision: <sha>}).`);
  for (const i of [1, 2, 3, 4, 5]) rows.push(proofRow(problems[i - 1]!, await fetchText(`${base}/${encodeURIComponent(pin)}/problem_${i}.txt`, context), "openai_imo", i));
  for (const i of [1, 2, 3, 4, 5]) {
    const text = await readBuiltinFile(`benchmarks/proof-arena-judge/gemini_imo_2025/${i}.txt`);
    if (text === undefined) throw new GymError("E_INPUT_NOT_FOUND", `benchmarks/proof-arena-judge/gemini_imo_2025/${i}.txt is missing from this build.`, { hint: "Rebuild gym (bun scripts/build.ts)." });
    // Python's text mode reads \r\n and \r as \n.
    rows.push(proofRow(problems[i - 1]!, text.replace(/\r\n?/g, "\n"), "gemini_imo", i));
  }
  rows.push(...imoUsamoRows(outputs.usamo, "usamo"), ...imoUsamoRows(outputs.imo, "imo"), ...imcRows(outputs.imc));
  for (const row of rows) {
    row.problem = pyStrip(String(row.problem));
    row.proof = pyStrip(String(row.proof));
  }
  const shuffled = pyShuffle(rows, 42);
  const count = await qwen3TokenCounter(context);
  const kept = shuffled.filter((r) => count(r.proof as string) <= MAX_QWEN_TOKENS);
  writePythonJsonl(context.outputPath, kept, false);
  context.log(`Filtered out ${rows.length - kept.length} proofs due to length.`);
  context.log(`Wrote ${kept.length} problems to ${context.outputPath}`);
  return context.outputPath;
}

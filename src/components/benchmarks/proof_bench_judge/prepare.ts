/**
 * proof_bench_judge: wenjiema02/ProofBench's train split as NeMo Gym's prepare.py writes it: one row per graded
 * proof (`problem_id`, `problem`, `proof`, `rubric`, `ground_truth_proof`, `expected_judgement` — "Judgement: Yes"
 * when the expert rating is at least 6 — and `metadata`), problem and proof stripped, shuffled by Python's
 * `random.seed(42)`, proofs over 10,000 Qwen3 tokens dropped; json.dumps with ASCII escapes.
 */
import { PyRandom } from "../../resources_servers/_nlp/python-random.ts";
import { pyStrip } from "../../resources_servers/_python/text.ts";
import { hubRows, requireColumns, type Row } from "../_hub-rows.ts";
import { hubSplitFile, writePythonJsonl } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";
import { qwen3TokenCounter } from "../_qwen3-tokens.ts";

export const HF_REPO_ID = "wenjiema02/ProofBench";
export const MAX_QWEN_TOKENS = 10_000;
const COLUMNS = ["problem_id", "problem", "model_solution", "marking_scheme", "reference_solution", "expert_rating", "generator"];

export function proofBenchRow(x: Row): Row {
  return {
    problem_id: x.problem_id,
    problem: pyStrip(x.problem as string),
    proof: pyStrip(x.model_solution as string),
    rubric: x.marking_scheme,
    ground_truth_proof: x.reference_solution,
    expected_judgement: Number(x.expert_rating) >= 6 ? "Judgement: Yes" : "Judgement: No",
    metadata: { model_id: x.generator, ground_truth_proof: x.reference_solution, expert_rating: x.expert_rating },
  };
}

/** `random.shuffle` with the module generator seeded by `random.seed(seed)`. */
export function pyShuffle<T>(items: T[], seed: number): T[] {
  const rng = new PyRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export async function prepare(context: PrepareContext): Promise<string> {
  const file = { repoId: HF_REPO_ID, ...hubSplitFile("train") };
  const entries = await hubRows(context, file);
  requireColumns(entries, COLUMNS, file);
  const rows = pyShuffle(entries.map(proofBenchRow), 42);
  const count = await qwen3TokenCounter(context);
  const kept = rows.filter((r) => count(r.proof as string) <= MAX_QWEN_TOKENS);
  context.log(`Filtered out ${rows.length - kept.length} proofs due to length.`);
  writePythonJsonl(context.outputPath, kept, true);
  const yes = kept.filter((r) => r.expected_judgement === "Judgement: Yes").length;
  context.log(`Wrote ${kept.length} problems to ${context.outputPath}`);
  context.log(`- Correct Proofs (Judgement: Yes): ${yes}`);
  context.log(`- Incorrect Proofs (Judgement: No): ${kept.length - yes}`);
  return context.outputPath;
}

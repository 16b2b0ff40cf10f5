/**
 * graphwalks: openai/graphwalks (its two Parquet files) as NeMo Gym's benchmarks/graphwalks/prepare.py writes it, with
 * NeMo Skills' two prompt fixes: the BFS question says "exactly depth N", and a parents answer loses the queried node
 * itself; `expected_answer` is the sorted node list as JSON, `n_tokens` the prompt's tiktoken count.
 * `prepare_script_args`: tokenizer_name (o200k_base, cl100k_base), max_context_tokens.
 */
import { stringifyPython } from "../../../metrics/pyjson.ts";
import { compareCodePoints } from "../../resources_servers/_sql/values.ts";
import { pyCompile } from "../../resources_servers/_python/re.ts";
import type { Row } from "../_hub-rows.ts";
import { hubParquetFiles, writeCounted } from "../_long-context.ts";
import type { PrepareContext } from "../_prepare.ts";
import { tokenCounting } from "../_tokens.ts";

export const HF_REPO_ID = "openai/graphwalks";
/** The repo's data files, sorted as `load_dataset` orders them. */
export const FILES = ["graphwalks_128k_and_shorter.parquet", "graphwalks_256k_to_1mil.parquet"];
const BFS = pyCompile(String.raw`Perform a BFS from node (\S+) with depth (\d+)`);
const PARENTS = pyCompile(String.raw`Find the parents of node ([^\s.]+)\.`);

/** The fixed prompt and answer of one row, and whether a self-parent was removed. */
export function fixRow(entry: Row): { prompt: string; answer: string[]; selfParent: boolean } {
  const prompt = String(entry.prompt).replace(BFS.global, (_, node: string, depth: string) => `Perform a BFS from node ${node} and return only the nodes at exactly depth ${depth} (not nodes at intermediate depths)`);
  const answer = (entry.answer_nodes as unknown[]).map(String);
  const target = PARENTS.search.exec(prompt)?.[1];
  const at = target === undefined ? -1 : answer.indexOf(target);
  if (at >= 0) answer.splice(at, 1);
  return { prompt, answer, selfParent: at >= 0 };
}

export async function prepare(context: PrepareContext): Promise<string> {
  const counting = await tokenCounting(context.args);
  let cleaned = 0;
  async function* fixed() {
    for await (const entry of hubParquetFiles(context, HF_REPO_ID, FILES, ["prompt", "answer_nodes", "problem_type", "prompt_chars"])) {
      const fix = fixRow(entry);
      if (fix.selfParent) cleaned++;
      yield { entry, ...fix };
    }
  }
  return writeCounted(
    context,
    counting,
    fixed(),
    ({ prompt }) => prompt,
    ({ entry: e, prompt, answer }, tokens) => ({
      responses_create_params: { input: [{ role: "user", content: prompt }] },
      expected_answer: stringifyPython([...answer].sort(compareCodePoints), { spaced: true, ensureAscii: true }),
      problem_type: e.problem_type,
      n_tokens: tokens,
      prompt_chars: e.prompt_chars,
    }),
    { ensureAscii: false, noun: "samples", extra: () => `; cleaned ${cleaned} self-parent answers` },
  );
}

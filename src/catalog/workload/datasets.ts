/** A workload's datasets, checked as a run would read them: each row a valid rollout input (prompt applied for benchmarks). */
import { GymError } from "../../errors.ts";
import { readFromRoots, type Root } from "../../config/index.ts";
import type { FoundFile } from "../../config/roots.ts";
import { checkRunRequest } from "../../protocol/run.ts";
import { applyPrompt, checkPromptCompatibility, loadPromptConfig, type PromptConfig } from "../../datasets/prompt.ts";
import { readJsonl } from "../../jsonl/read.ts";

export interface DatasetReport {
  name: string;
  type: string;
  path: string;
  rows: number;
  prompt_config: string | null;
}

/** Checks one manifest dataset; `standardPrompt` is the manifest's standard_prompt_config (benchmarks). */
export async function checkWorkloadDataset(dataset: Record<string, unknown>, roots: Root[], cwd: string, standardPrompt?: string): Promise<DatasetReport> {
  const name = String(dataset.name);
  // A benchmark's data is written by its prepare step: say so, rather than only where it was looked for.
  const prepared = dataset.type === "benchmark" ? `\nA benchmark's data is written by its prepare step: gym eval prepare --benchmark ${name} --search-dir .` : "";
  const file = await locate(String(dataset.jsonl_fpath), roots, cwd, `Dataset file of '${name}'`, prepared);
  const data = file.path ?? file.display;
  let prompt: PromptConfig | undefined;
  let promptPath: string | null = null;
  if (dataset.type === "benchmark") {
    if (typeof dataset.prepare_script !== "string") throw new GymError("E_CONFIG", `Benchmark dataset '${name}' has no prepare script.`, { hint: "Set datasets[].prepare_script in the manifest." });
    await locate(dataset.prepare_script, roots, cwd, `Prepare script of '${name}'`);
    const entry = (dataset.prompt_config as string | undefined) ?? standardPrompt;
    if (!entry) throw new GymError("E_CONFIG", `Benchmark dataset '${name}' has no prompt_config and the manifest has no standard_prompt_config.`, { hint: "Set standard_prompt_config in the manifest." });
    prompt = await loadPromptConfig(entry, roots);
    promptPath = (await locate(entry, roots, cwd, `Prompt config of '${name}'`)).display;
  }
  let rows = 0;
  for await (const record of file.path ? readJsonl(file.path, {}) : embeddedRows(file.text, file.display)) {
    rows++;
    const where = `${data}:${record.line}`;
    let row = record.value as Record<string, unknown>;
    if (!row || typeof row !== "object" || Array.isArray(row)) throw new GymError("E_INPUT_SCHEMA", `${where}: dataset '${name}' rows must be JSON objects.`);
    if (prompt) {
      checkPromptCompatibility(row, record.line - 1, where);
      row = applyPrompt(row, prompt, where);
    }
    const checked = checkRunRequest(row);
    if (!checked.ok) {
      const issue = checked.error.detail[0]!;
      const location = issue.loc.slice(1).join(".") || "row";
      throw new GymError("E_INPUT_SCHEMA", `${where}: dataset '${name}' row ${record.line} is not a valid rollout input at ${location}: ${issue.msg}`, {
        hint: "Each row needs responses_create_params with an input (or a prompt_config that makes one).",
      });
    }
  }
  if (rows === 0) throw new GymError("E_INPUT_EMPTY", `Dataset '${name}' (${data}) is empty.`, { hint: "Add at least one row, or remove the dataset from the manifest." });
  return { name, type: String(dataset.type), path: data, rows, prompt_config: promptPath };
}

/** A file relative to the cwd, then to each root (NeMo Gym: under the cwd or the install). */
async function locate(entry: string, roots: Root[], cwd: string, what: string, more = ""): Promise<FoundFile> {
  const { found, searched } = await readFromRoots(entry, [{ kind: "dir", path: cwd }, ...roots], cwd);
  if (!found) throw new GymError("E_INPUT_NOT_FOUND", `${what} was not found: ${entry}`, { hint: `Looked in:\n  ${searched.join("\n  ")}${more}` });
  return found;
}

/** The rows of a built-in file read from the binary's embedded copy. */
async function* embeddedRows(text: string, display: string): AsyncGenerator<{ line: number; value: unknown }> {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.trim()) continue;
    try {
      yield { line: i + 1, value: JSON.parse(lines[i]!) };
    } catch (error) {
      throw new GymError("E_INPUT_JSON", `${display}:${i + 1}: invalid JSON (${(error as Error).message}).`);
    }
  }
}

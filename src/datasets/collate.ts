/** `gym dataset collate`: measure every in-scope dataset, write per-dataset and per-type metrics, concatenate rows per type. */
import { mkdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { GymError } from "../errors.ts";
import { openAppendSink } from "../runtime/files.ts";
import { stringifyPython } from "../metrics/pyjson.ts";
import { normalizeDatasetEntry, type DatasetEntry, type DatasetType } from "./dataset-config.ts";
import { FixedMetrics, type OtherSummary } from "./dataset-metrics.ts";
import { measureDataset, sourceLines, type LineSource } from "./measure.ts";
import { metricsDocument, writeMetricsFile, type MetricsWrite } from "./metrics-file.ts";
import { applyPrompt, checkPromptCompatibility, type PromptConfig } from "./prompt.ts";

export type CollateMode = "train_preparation" | "example_validation";

/** An agent instance of the resolved config and its `datasets:` entries. */
export interface CollateAgent {
  name: string;
  datasets: DatasetEntry[];
}

export interface CollateOptions {
  agents: CollateAgent[];
  mode: CollateMode;
  /** Where `<type>_metrics.json` and `<type>.jsonl` go. */
  outputDir: string;
  overwriteConflicts?: boolean;
  /** Finds a dataset for reading (roots: extra roots, cwd, built-ins); undefined when no root has it. */
  locate: (jsonlPath: string) => Promise<LineSource | undefined>;
  /** Loads a benchmark dataset's `prompt_config`. */
  loadPrompt?: (path: string) => Promise<PromptConfig>;
  /** Progress lines (stderr). */
  log?: (line: string) => void;
}

export interface CollateResult {
  datasets: (MetricsWrite & { agent: string; dataset: string; offending: number })[];
  types: (MetricsWrite & { type: DatasetType; jsonlPath: string })[];
}

/** The dataset types each mode covers. */
export function typesInScope(mode: CollateMode): DatasetType[] {
  return mode === "train_preparation" ? ["train", "validation", "benchmark"] : ["example"];
}

/**
 * Runs collate as NeMo Gym does. Per-dataset metrics files are written next to each dataset's
 * `jsonl_fpath` (relative to the cwd, as upstream writes them); conflicts abort after all datasets
 * were measured, unless `overwriteConflicts`.
 */
export async function collate(options: CollateOptions): Promise<CollateResult> {
  const log = options.log ?? (() => {});
  const scope = typesInScope(options.mode);
  const work: { agent: string; config: DatasetEntry; source: LineSource }[] = [];
  const missing: string[] = [];
  for (const agent of options.agents) {
    agent.datasets.forEach((raw, i) => {
      if (!scope.includes(raw.type as DatasetType)) return;
      work.push({ agent: agent.name, config: normalizeDatasetEntry(raw, `${agent.name}.datasets[${i}]`), source: undefined as never });
    });
  }
  if (work.length === 0) {
    throw new GymError("E_CONFIG", `No agent instance has a dataset of type ${scope.join(", ")} (mode ${options.mode}).`, {
      hint: "Pass a config whose agent instance lists datasets, e.g. --resources-server mcqa, or change --mode.",
    });
  }
  for (const item of work) {
    const source = await options.locate(item.config.jsonl_fpath as string);
    if (source) item.source = source;
    else missing.push(`${item.agent}: ${item.config.name} (${item.config.type}) at ${item.config.jsonl_fpath}`);
  }
  if (missing.length > 0) {
    throw new GymError("E_INPUT_NOT_FOUND", `Missing datasets:\n- ${missing.join("\n- ")}`, {
      hint: "Provide the JSONL files at those paths (relative to the cwd or a --search-dir root), or download them with `gym dataset download`.",
    });
  }

  const perType = new Map<DatasetType, { fixed: FixedMetrics; other: Map<string, OtherSummary>; config: DatasetEntry }>();
  const result: CollateResult = { datasets: [], types: [] };
  for (const item of work) {
    const type = item.config.type as DatasetType;
    const state = await measureDataset(item.source, item.config.num_repeats as number);
    let acc = perType.get(type);
    if (!acc) perType.set(type, (acc = { fixed: new FixedMetrics(), other: new Map(), config: item.config }));
    acc.fixed.merge(state.fixed);
    const other = state.otherSummaries();
    // NeMo Gym does not merge the other fields across datasets: the last dataset holding a key wins.
    for (const [key, value] of other) acc.other.set(key, value);
    const doc = metricsDocument(item.config, state.fixed, other);
    const path = metricsPathFor(item.config.jsonl_fpath as string);
    const written = writeMetricsFile(path, doc, { overwrite: options.overwriteConflicts ?? false, skipWhenUnchanged: true });
    log(`${written.status === "unchanged" ? "Up to date" : written.status === "conflict" ? "CONFLICT" : "Wrote"}: ${path}`);
    result.datasets.push({ ...written, agent: item.agent, dataset: item.config.name as string, offending: state.offendingIndices.length });
  }
  throwOnConflicts(result.datasets, options.overwriteConflicts);

  for (const type of scope) {
    const acc = perType.get(type);
    if (!acc) continue;
    mkdirSync(options.outputDir, { recursive: true });
    const path = join(options.outputDir, `${type}_metrics.json`);
    const doc = metricsDocument(acc.config, acc.fixed, acc.other);
    const written = writeMetricsFile(path, doc, { overwrite: options.overwriteConflicts ?? false, skipWhenUnchanged: false });
    const jsonlPath = join(options.outputDir, `${type}.jsonl`);
    if (written.status !== "conflict") await writeCollatedRows(type, work, jsonlPath, options);
    log(`${written.status === "conflict" ? "CONFLICT" : "Wrote"}: ${path} and ${jsonlPath}`);
    result.types.push({ ...written, type, jsonlPath });
  }
  throwOnConflicts(result.types, options.overwriteConflicts);
  return result;
}

/** `<dir>/<stem>_metrics.json` beside the dataset. */
export function metricsPathFor(jsonlPath: string): string {
  return join(dirname(jsonlPath), `${basename(jsonlPath).replace(/\.[^.]*$/, "")}_metrics.json`);
}

/** Each dataset goes to `<stem>_prepare.jsonl` (routed to its agent, prompt applied for benchmarks), then all are concatenated. */
async function writeCollatedRows(type: DatasetType, work: { agent: string; config: DatasetEntry; source: LineSource }[], target: string, options: CollateOptions) {
  const out = openAppendSink(target, { truncate: true });
  try {
    for (const item of work.filter((w) => w.config.type === type)) {
      const jsonl = item.config.jsonl_fpath as string;
      const preparePath = join(dirname(jsonl), `${basename(jsonl).replace(/\.[^.]*$/, "")}_prepare.jsonl`);
      const prepared = openAppendSink(preparePath, { truncate: true });
      const prompt = type === "benchmark" && item.config.prompt_config && options.loadPrompt ? await options.loadPrompt(item.config.prompt_config as string) : undefined;
      try {
        let index = 0;
        for await (const { text, line } of sourceLines(item.source)) {
          let row = parseRow(text, `${jsonl}:${line}`);
          if (prompt) {
            checkPromptCompatibility(row, index, `${jsonl}:${line}`);
            row = applyPrompt(row, prompt, `${jsonl}:${line}`);
          }
          row.agent_ref = { type: "responses_api_agents", name: item.agent };
          const lineText = `${stringifyPython(row, { spaced: true, ensureAscii: true })}\n`;
          for (let r = 0; r < (item.config.num_repeats as number); r++) {
            await prepared.write(lineText);
            await out.write(lineText);
          }
          index++;
        }
      } finally {
        await prepared.close();
      }
    }
  } finally {
    await out.close();
  }
}

function parseRow(text: string, where: string): Record<string, unknown> {
  try {
    const row = JSON.parse(text);
    if (row && typeof row === "object" && !Array.isArray(row)) return row;
  } catch {}
  throw new GymError("E_INPUT_JSON", `${where}: not a JSON object, so it cannot be collated.`, { hint: "Fix or delete that line." });
}

function throwOnConflicts(writes: MetricsWrite[], overwrite: boolean | undefined): void {
  const conflicts = writes.filter((w) => w.status === "conflict" || w.status === "overwritten");
  if (conflicts.length === 0 || overwrite) return;
  const lines = conflicts.map((c) => `- ${c.conflictPath}: ${c.differences.slice(0, 3).join("; ")}${c.differences.length > 3 ? "; …" : ""}`);
  throw new GymError("E_CHECK_FAILED", `Found conflicting aggregate metrics that need to be corrected:\n${lines.join("\n")}`, {
    hint: `The metrics may be outdated. Delete ${conflicts.map((c) => c.path).join(", ")} and rerun, or pass +overwrite_metrics_conflicts=true.`,
  });
}

/** `gym dataset collate`: measure every in-scope dataset, write per-dataset and per-type metrics, concatenate rows per type. */
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { GymError } from "../errors.ts";
import { guardOutputs } from "../outputs/guard.ts";
import { openAppendSink, removeStaleTemps } from "../runtime/files.ts";
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

  guardCollate(work, scope, options.outputDir);
  refuseOutputDirFile(options.outputDir);
  // Validate first, write last: every row of every dataset is checked before any file is written.
  for (const item of work) {
    let rows = 0;
    for await (const { text } of sourceLines(item.source)) if (text.trim() !== "" && ++rows > 0) break;
    if (rows === 0) {
      throw new GymError("E_INPUT_EMPTY", `Dataset '${item.config.name}' (${item.config.jsonl_fpath}) holds no rows: the file is empty or blank.`, { hint: "Fill it with one JSON object per line (or drop it from the config's datasets); nothing was written." });
    }
  }
  for (const type of scope) for await (const _ of collatedLines(type, work, options));


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

type Work = { agent: string; config: DatasetEntry; source: LineSource }[];

const preparePathFor = (jsonl: string) => join(dirname(jsonl), `${basename(jsonl).replace(/\.[^.]*$/, "")}_prepare.jsonl`);

/** No file collate writes (metrics beside each dataset, `<stem>_prepare.jsonl`, the collated outputs) may be a dataset it reads. */
function guardCollate(work: Work, scope: DatasetType[], outputDir: string): void {
  const inputs = work.flatMap((w) => ("path" in w.source ? [{ path: w.source.path, role: `dataset '${w.config.name}'` }] : []));
  const outputs = [
    ...work.flatMap((w) => [
      { path: metricsPathFor(w.config.jsonl_fpath as string), role: `the metrics of dataset '${w.config.name}'` },
      { path: preparePathFor(w.config.jsonl_fpath as string), role: `the prepared copy of dataset '${w.config.name}'` },
    ]),
    ...scope.flatMap((type) => [
      { path: join(outputDir, `${type}_metrics.json`), role: `the ${type} metrics (in --output-dir)` },
      { path: join(outputDir, `${type}.jsonl`), role: `the collated ${type} rows (in --output-dir)` },
    ]),
  ];
  guardOutputs(inputs, outputs, { command: "gym dataset collate", suggestion: "Pass another --output-dir (the collated files are named <type>.jsonl and <type>_metrics.json)." });
}

/** The collated lines of one dataset type, in order, each with the prepared file it also goes to (rows checked on the way). */
async function* collatedLines(type: DatasetType, work: Work, options: CollateOptions): AsyncGenerator<{ text: string; prepare: string; repeats: number }> {
  for (const item of work.filter((w) => w.config.type === type)) {
    const jsonl = item.config.jsonl_fpath as string;
    const prompt = type === "benchmark" && item.config.prompt_config && options.loadPrompt ? await options.loadPrompt(item.config.prompt_config as string) : undefined;
    let index = 0;
    for await (const { text, line } of sourceLines(item.source)) {
      // Blank lines (a trailing empty line, a gap) hold no row: skipped, as the metrics skip them.
      if (text.trim() === "") continue;
      let row = parseRow(text, `${jsonl}:${line}`);
      if (prompt) {
        checkPromptCompatibility(row, index, `${jsonl}:${line}`);
        row = applyPrompt(row, prompt, `${jsonl}:${line}`);
      }
      if (row.responses_create_params === undefined) throw noCreateParams(`${jsonl}:${line}`, type === "benchmark");
      row.agent_ref = { type: "responses_api_agents", name: item.agent };
      yield { text: `${stringifyPython(row, { spaced: true, ensureAscii: true })}\n`, prepare: preparePathFor(jsonl), repeats: item.config.num_repeats as number };
      index++;
    }
  }
}

/**
 * Each dataset goes to `<stem>_prepare.jsonl` (routed to its agent, prompt applied for benchmarks), then all are
 * concatenated. Every file is streamed to a temporary file beside it and renamed into place at the end.
 */
async function writeCollatedRows(type: DatasetType, work: Work, target: string, options: CollateOptions) {
  const temps = new Map<string, { tmp: string; sink: ReturnType<typeof openAppendSink> }>();
  const open = (path: string) => {
    let t = temps.get(path);
    if (!t) {
      removeStaleTemps(path);
      const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${temps.size}.tmp`);
      temps.set(path, (t = { tmp, sink: openAppendSink(tmp, { truncate: true }) }));
    }
    return t.sink;
  };
  let done = false;
  try {
    const out = open(target);
    for await (const { text, prepare, repeats } of collatedLines(type, work, options)) {
      const prepared = open(prepare);
      for (let r = 0; r < repeats; r++) await prepared.write(text), await out.write(text);
    }
    for (const { sink } of temps.values()) await sink.close();
    for (const [path, { tmp }] of temps) renameSync(tmp, path);
    done = true;
  } finally {
    if (!done) for (const { tmp, sink } of temps.values()) await sink.close().catch(() => {}), rmSync(tmp, { force: true });
  }
}

/**
 * A row with no `responses_create_params` (and no prompt_config to make one) cannot be collected. NeMo Gym
 * copies it and leaves it out of the metrics without a word; gym refuses it, so a training set does not
 * carry rows that fail later, at collection time.
 */
function noCreateParams(where: string, benchmark: boolean): GymError {
  return new GymError("E_INPUT_SCHEMA", `${where}: the row has no responses_create_params, so it cannot be collected.`, {
    hint: `Give the row a responses_create_params object (its input prompt)${benchmark ? ", or set the dataset's prompt_config to build it from the row's fields" : ""}; nothing was written.`,
  });
}

/** The output folder must be a folder (or not exist yet, below a folder): checked before any file is written. */
function refuseOutputDirFile(outputDir: string): void {
  for (let dir = outputDir; ; dir = dirname(dir)) {
    if (existsSync(dir)) {
      if (statSync(dir).isDirectory()) return;
      throw new GymError("E_BAD_FLAG_VALUE", `--output-dir ${outputDir}: ${dir === outputDir ? "it is" : `${dir} is`} a file, not a folder.`, {
        hint: "Pass a folder for --output-dir (it is created if missing); nothing was written.",
      });
    }
    if (dirname(dir) === dir) return;
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

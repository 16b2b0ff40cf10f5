/** `gym eval prepare`: find each benchmark dataset of a resolved config, check every prepare script, then run them. */
import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { builtinPrepareScripts, type PrepareFn } from "../components/benchmarks/index.ts";
import type { ResolvedServerInstance } from "../config/resolve.ts";
import type { Root } from "../config/roots.ts";
import { GymError } from "../errors.ts";
import { writeJsonlAtomic } from "../jsonl/write.ts";
import { hubDownload } from "./hub.ts";

/** One benchmark dataset and the agent instance that runs it. */
export interface BenchmarkDataset {
  agent: string;
  name: string;
  jsonlPath: string;
  prepareScript: string;
  promptConfig?: string;
  numRepeats: number;
  /** The whole dataset entry (open record: `taskset` and other keys are kept). */
  entry: Record<string, unknown>;
}

/** The benchmark datasets of a config: agent instances with exactly one; more than one in an instance is an error. */
export function benchmarkDatasets(instances: ResolvedServerInstance[]): BenchmarkDataset[] {
  const out: BenchmarkDataset[] = [];
  const agents = instances.filter((i) => i.serverType === "responses_api_agents");
  for (const agent of agents) {
    const found = (Array.isArray(agent.config.datasets) ? agent.config.datasets : []).filter((d) => (d as Record<string, unknown>)?.type === "benchmark") as Record<string, unknown>[];
    if (found.length > 1) {
      throw new GymError("E_CONFIG", `Agent instance '${agent.name}' has ${found.length} benchmark datasets; expected exactly one.`, { hint: "Split them into one agent instance per benchmark." });
    }
    const d = found[0];
    if (!d) continue;
    out.push({ agent: agent.name, name: String(d.name), jsonlPath: String(d.jsonl_fpath), prepareScript: String(d.prepare_script), promptConfig: d.prompt_config ? String(d.prompt_config) : undefined, numRepeats: Number(d.num_repeats ?? 1), entry: d });
  }
  if (out.length === 0) {
    throw new GymError("E_CONFIG", `No benchmark dataset found. Agent instances looked at: ${agents.map((a) => a.name).join(", ") || "(none)"}.`, {
      hint: "Pass --benchmark NAME (see `gym list benchmarks`), or a config whose agent lists a dataset with `type: benchmark`.",
    });
  }
  return out;
}

export interface PrepareOptions {
  roots: Root[];
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Skip benchmarks whose JSONL already exists (`use_cached_prepared_benchmarks`). */
  useCached?: boolean;
  /** `prepare_script_args`. */
  args?: Record<string, unknown>;
  log?: (line: string) => void;
}

/** Loads a prepare script: a user file in a root (cwd first) wins over a built-in of the same path. */
async function loadPrepare(script: string, roots: Root[], cwd: string): Promise<PrepareFn | string> {
  if (script.endsWith(".py")) return `${script}: Python prepare scripts are not run by gym; write a prepare.ts exporting prepare(context) (see benchmarks/arithmetic/prepare.ts).`;
  const candidates = isAbsolute(script) ? [script] : roots.filter((r) => r.kind === "dir").map((r) => resolve(cwd, (r as { path: string }).path, script));
  const file = candidates.find((c) => existsSync(c));
  const builtin = builtinPrepareScripts[script];
  if (!file && !builtin) return `${script}: prepare script not found (looked in ${candidates.join(", ") || "the built-ins"}).`;
  const module: { prepare?: unknown } = file ? await import(file) : await builtin!();
  return typeof module.prepare === "function" ? (module.prepare as PrepareFn) : `${script}: the module does not export a prepare() function.`;
}

/** Checks every prepare script first (all problems reported together, nothing run), then runs them in order. */
export async function prepareBenchmarks(datasets: BenchmarkDataset[], options: PrepareOptions): Promise<{ prepared: string[]; skipped: string[] }> {
  const cwd = options.cwd ?? process.cwd();
  const log = options.log ?? (() => {});
  const loaded = await Promise.all(datasets.map((d) => loadPrepare(d.prepareScript, options.roots, cwd)));
  const problems = loaded.filter((l): l is string => typeof l === "string");
  if (problems.length > 0) {
    throw new GymError("E_CONFIG", `Cannot prepare:\n- ${problems.join("\n- ")}`, { hint: "Fix the prepare_script paths in the benchmark config; nothing was prepared." });
  }
  const prepared: string[] = [];
  const skipped: string[] = [];
  for (const [i, d] of datasets.entries()) {
    const outputPath = resolve(cwd, d.jsonlPath);
    if (options.useCached && existsSync(outputPath)) {
      skipped.push(outputPath);
      log(`Using the cached ${d.name} data at ${outputPath}`);
      continue;
    }
    const written = await (loaded[i] as PrepareFn)({
      outputPath,
      args: options.args ?? {},
      download: (repoId, file, opts) => hubDownload(repoId, file, { ...opts, env: options.env }),
      writeRows: async (path, rows) => writeJsonlAtomic(path, rows),
      log,
    });
    if (resolve(cwd, written) !== outputPath) {
      throw new GymError("E_CONFIG", `${d.prepareScript} returned ${resolve(cwd, written)}, but the benchmark's jsonl_fpath is ${outputPath}.`, {
        hint: "A prepare step must write the dataset's jsonl_fpath and return that path.",
      });
    }
    prepared.push(outputPath);
  }
  return { prepared, skipped };
}

/** `<cwd>/<jsonl_fpath>`: where a prepared benchmark lives. */
export function preparedPath(d: BenchmarkDataset, cwd = process.cwd()): string {
  return isAbsolute(d.jsonlPath) ? d.jsonlPath : join(cwd, d.jsonlPath);
}

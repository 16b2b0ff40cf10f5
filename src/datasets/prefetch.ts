/** `gym env prefetch`: fetch everything a config's run will read (datasets, prepared benchmarks and their sources) before going offline. */
import type { ResolvedServerInstance } from "../config/resolve.ts";
import type { Root } from "../config/roots.ts";
import { cacheDir } from "../download/index.ts";
import { isGymError } from "../errors.ts";
import { locateDataset } from "./locate.ts";
import { benchmarkDatasets, prepareBenchmarks } from "./prepare.ts";
import { fetchMissingDatasets, type StorageSettings } from "./storage/index.ts";

export interface PrefetchReport {
  cacheDir: string;
  downloaded: string[];
  prepared: string[];
  alreadyThere: string[];
}

/**
 * Downloads each agent dataset that is missing and names a remote source, and runs each benchmark's prepare
 * step (whose downloads land in the cache) unless its JSONL exists. A second call fetches nothing.
 */
export async function prefetch(instances: ResolvedServerInstance[], roots: Root[], settings: StorageSettings, options: { tree: Record<string, unknown>; log?: (line: string) => void }): Promise<PrefetchReport> {
  const log = options.log ?? (() => {});
  const agents = instances
    .filter((i) => i.serverType === "responses_api_agents" && Array.isArray(i.config.datasets))
    .map((i) => ({ name: i.name, datasets: (i.config.datasets as Record<string, unknown>[]).filter((d) => d.type !== "benchmark") }));
  const downloaded = await fetchMissingDatasets(agents, settings, {
    dataSource: options.tree.data_source as string | undefined,
    log,
    exists: async (p) => (await locateDataset(p, roots)) !== undefined,
    orphansAreErrors: false,
  });
  let prepared: string[] = [];
  let alreadyThere: string[] = [];
  let benchmarks;
  try {
    benchmarks = benchmarkDatasets(instances);
  } catch (error) {
    if (!isGymError(error) || error.code !== "E_CONFIG" || !error.message.startsWith("No benchmark dataset")) throw error;
  }
  if (benchmarks) {
    const result = await prepareBenchmarks(benchmarks, { roots, env: settings.env, useCached: true, args: (options.tree.prepare_script_args as Record<string, unknown> | undefined) ?? {}, log });
    prepared = result.prepared;
    alreadyThere = result.skipped;
  }
  return { cacheDir: cacheDir(settings.env), downloaded, prepared, alreadyThere };
}

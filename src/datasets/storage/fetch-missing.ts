/** `collate --download` / `env prefetch`: fetch each dataset a config names by huggingface_identifier, gitlab_identifier or source:, as NeMo Gym does. */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { GymError } from "../../errors.ts";
import type { StorageSettings } from "./credentials.ts";
import { datasetDownload } from "./index.ts";

type Entry = Record<string, unknown>;

/** Where an entry's data lives remotely, or undefined when it names none. */
export function remoteSource(d: Entry, dataSource = "huggingface"): { storage: "hf" | "gitlab"; repoId?: string; name?: string; version?: string; artifact?: string } | undefined {
  const src = d.source as Entry | undefined;
  const hf = (src?.type === "huggingface" ? src : d.huggingface_identifier) as Entry | undefined;
  const gl = (src?.type === "gitlab" ? src : d.gitlab_identifier) as Entry | undefined;
  const pick = hf && gl ? (dataSource === "gitlab" ? "gitlab" : "hf") : hf ? "hf" : gl ? "gitlab" : undefined;
  if (pick === "hf") {
    // No artifact: the split's Parquet conversion, as load_dataset(split=type) would read it.
    const artifact = hf!.artifact_fpath ? String(hf!.artifact_fpath) : `default/${String(d.type ?? "train")}/0000.parquet`;
    return { storage: "hf", repoId: String(hf!.repo_id), artifact, version: hf!.artifact_fpath ? undefined : "refs/convert/parquet" };
  }
  if (pick === "gitlab") return { storage: "gitlab", name: String(gl!.dataset_name), version: String(gl!.version), artifact: String(gl!.artifact_fpath) };
  return undefined;
}

/**
 * Downloads every dataset entry whose jsonl_fpath is missing and that names a remote source; entries with
 * neither a local file nor a source are reported together. Returns the files written.
 */
export async function fetchMissingDatasets(agents: { name: string; datasets: Entry[] }[], settings: StorageSettings, options: { cwd?: string; dataSource?: string; force?: boolean; log?: (line: string) => void; exists?: (jsonlPath: string) => Promise<boolean>; orphansAreErrors?: boolean } = {}): Promise<string[]> {
  const cwd = options.cwd ?? process.cwd();
  const written: string[] = [];
  const orphans: string[] = [];
  for (const agent of agents) {
    for (const d of agent.datasets) {
      const path = typeof d.jsonl_fpath === "string" ? resolve(cwd, d.jsonl_fpath) : undefined;
      if (!path) continue;
      const present = options.exists ? await options.exists(String(d.jsonl_fpath)) : existsSync(path);
      if (present && !options.force) continue;
      const source = remoteSource(d, options.dataSource);
      if (!source) {
        if (d.type !== "benchmark" && d.type !== "example") orphans.push(`${agent.name}: ${String(d.name)} (${String(d.jsonl_fpath)})`);
        continue;
      }
      options.log?.(`Downloading dataset '${String(d.name)}' for ${agent.name} from ${source.storage === "hf" ? `Hugging Face ${source.repoId}` : `GitLab ${source.name}/${source.version}`} to ${path}`);
      await datasetDownload({ storage: source.storage, repoId: source.repoId, name: source.name, revision: source.version, artifact: source.artifact, output: path }, settings);
      written.push(path);
    }
  }
  if (orphans.length > 0 && options.orphansAreErrors !== false) {
    throw new GymError("E_INPUT_NOT_FOUND", `Missing datasets with nothing to download them from:\n- ${orphans.join("\n- ")}`, { hint: "Provide the files, or give each dataset a huggingface_identifier { repo_id, artifact_fpath } or gitlab_identifier { dataset_name, version, artifact_fpath }." });
  }
  return written;
}

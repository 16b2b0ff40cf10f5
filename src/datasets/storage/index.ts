/** `gym dataset upload | download | rm | migrate`: datasets on the Hugging Face Hub (default) or a GitLab package registry. */
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { GymError } from "../../errors.ts";
import { hfDownload, readParquetRows } from "../../download/index.ts";
import { openAppendSink } from "../../runtime/files.ts";
import { type StorageSettings, storageSettings } from "./credentials.ts";
import { gitlabDelete, gitlabDownload, gitlabPackages, gitlabUpload, type GitlabPackage } from "./gitlab.ts";
import { hubRepoId, hubUpload } from "./hf.ts";

export type Storage = "hf" | "gitlab";
export { storageSettings, type StorageSettings };
export { fetchMissingDatasets, remoteSource } from "./fetch-missing.ts";

export function checkStorage(value: string | undefined): Storage {
  const s = value ?? "hf";
  if (s !== "hf" && s !== "gitlab") throw new GymError("E_BAD_FLAG_VALUE", `--storage must be hf or gitlab, got '${s}'.`, { hint: "Omit it for Hugging Face, or pass --storage gitlab." });
  return s;
}

function needInput(input: string | undefined): string {
  if (!input) throw new GymError("E_MISSING_ARGUMENT", "--input is required.", { hint: "e.g. --input data/train.jsonl" });
  if (!existsSync(input)) throw new GymError("E_INPUT_NOT_FOUND", `File not found: ${input}`, { hint: `Check the path (relative paths start at ${process.cwd()}).` });
  return input;
}

export interface UploadRequest {
  storage: Storage;
  input?: string;
  name?: string;
  repoId?: string;
  revision?: string;
}

/** Uploads one JSONL file; returns where it went and the command that downloads it back. */
export async function datasetUpload(req: UploadRequest, settings: StorageSettings): Promise<{ storage: Storage; location: string; file: string; download: string }> {
  const input = needInput(req.input);
  const file = basename(input);
  if (req.storage === "gitlab") {
    if (!req.name) throw new GymError("E_MISSING_ARGUMENT", "--name is required for GitLab storage.", { hint: "e.g. --name my_dataset --revision 0.0.1" });
    const version = req.revision ?? "0.0.1";
    await gitlabUpload(input, { name: req.name, version }, settings);
    return { storage: "gitlab", location: `${req.name}/${version}/${file}`, file, download: `gym dataset download --storage gitlab --name ${req.name} --revision ${version} --artifact ${file} --output ${input}` };
  }
  const repoId = await hubRepoId(req.repoId, req.name, settings);
  const revision = req.revision ?? "main";
  await hubUpload(input, repoId, { revision }, settings);
  return { storage: "hf", location: `${repoId}@${revision}/${file}`, file, download: `gym dataset download --repo-id ${repoId} --revision ${revision} --artifact ${file} --output ${input}` };
}

export interface DownloadRequest {
  storage: Storage;
  repoId?: string;
  name?: string;
  artifact?: string;
  revision?: string;
  output?: string;
}

/** Downloads one artifact to `--output` (a .parquet artifact written to a .jsonl output is converted row by row). */
export async function datasetDownload(req: DownloadRequest, settings: StorageSettings): Promise<{ output: string; bytes?: number; rows?: number }> {
  if (!req.artifact) throw new GymError("E_MISSING_ARGUMENT", "--artifact is required: the file in the dataset to download.", { hint: "e.g. --artifact train.jsonl" });
  const output = resolve(req.output ?? basename(req.artifact));
  if (req.storage === "gitlab") {
    if (!req.name) throw new GymError("E_MISSING_ARGUMENT", "--name is required for GitLab storage.", { hint: "e.g. --name my_dataset --revision 0.0.1" });
    await gitlabDownload({ name: req.name, version: req.revision ?? "0.0.1", file: req.artifact }, output, settings);
    return { output };
  }
  if (!req.repoId) throw new GymError("E_MISSING_ARGUMENT", "--repo-id is required for Hugging Face.", { hint: "e.g. --repo-id NVIDIA/NeMo-Gym-Math-example_multi_step-v1" });
  const cached = await hfDownload({ repoId: req.repoId, path: req.artifact, revision: req.revision }, { env: settings.env, log: (l) => process.stderr.write(`${l}\n`) });
  if (req.artifact.endsWith(".parquet") && output.endsWith(".jsonl")) {
    const tmp = `${output}.${process.pid}.tmp`;
    const sink = openAppendSink(tmp, { truncate: true });
    let rows = 0;
    try {
      for await (const row of readParquetRows(cached)) {
        await sink.write(`${JSON.stringify(row)}\n`);
        rows++;
      }
      await sink.close();
      renameSync(tmp, output);
    } catch (error) {
      rmSync(tmp, { force: true });
      throw error;
    }
    return { output, rows };
  }
  mkdirSync(dirname(output), { recursive: true });
  const tmp = `${output}.${process.pid}.tmp`;
  try {
    copyFileSync(cached, tmp);
    renameSync(tmp, output);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw new GymError("E_IO", `Cannot write ${output}: ${(error as Error).message}`, { hint: "Check the folder is writable and has space.", cause: error });
  }
  return { output };
}

/** The GitLab packages `rm` would delete (every version unless one is named). */
export async function datasetRmPlan(name: string | undefined, revision: string | undefined, settings: StorageSettings): Promise<GitlabPackage[]> {
  if (!name) throw new GymError("E_MISSING_ARGUMENT", "--name is required.", { hint: "e.g. gym dataset rm --name old_dataset" });
  const found = await gitlabPackages(name, revision, settings);
  if (found.length === 0) throw new GymError("E_INPUT_NOT_FOUND", `GitLab project ${settings.gitlabProjectId} has no dataset '${name}'${revision ? ` version ${revision}` : ""}.`, { hint: "Check --name (and --revision); nothing was deleted." });
  return found;
}

export { gitlabDelete as datasetRm };

/** Uploads to Hugging Face, checks it landed (hash), then deletes the GitLab package (the versions named). */
export async function datasetMigrate(req: UploadRequest, settings: StorageSettings): Promise<{ location: string; deleted: GitlabPackage[] }> {
  const plan = await datasetRmPlan(req.name, req.revision, settings);
  const up = await datasetUpload({ ...req, storage: "hf" }, settings);
  await gitlabDelete(plan, settings);
  return { location: up.location, deleted: plan };
}

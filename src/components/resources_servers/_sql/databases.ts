/**
 * Where a SQL server's databases live and how they get there: the configured folder (absolute; relative to the
 * working directory when it exists there, as in a NeMo Gym checkout; else under the download cache), filled on
 * first use by downloading the dataset's archive through the download layer (resumable, refused offline) and
 * unpacking it into a staging folder that is renamed into place, so a folder is complete or absent.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, isAbsolute, join, resolve } from "node:path";
import { cacheDir, downloadFile, isOffline, type Env } from "../../../download/index.ts";
import { GymError } from "../../../errors.ts";
import { unzip } from "../../../download/zip.ts";

/** The folder a `*_dir` config value names. */
export function databaseRoot(configured: string, env: Env = process.env): string {
  if (isAbsolute(configured)) return configured;
  const local = resolve(configured);
  return existsSync(local) ? local : join(cacheDir(env), configured);
}

/** True when `folder` holds at least one `.sqlite` file (at `depth` 0: directly; 1: in its sub-folders). */
export function hasSqliteFiles(folder: string, depth: 0 | 1): boolean {
  if (!existsSync(folder)) return false;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (depth === 0 && entry.isFile() && entry.name.endsWith(".sqlite") && !entry.name.startsWith(".")) return true;
    if (depth === 1 && entry.isDirectory() && hasSqliteFiles(join(folder, entry.name), 0)) return true;
  }
  return false;
}

/** A task's `db_id` names one database file; a path in it would reach outside the folder. */
export function safeDbId(dbId: string): boolean {
  return dbId !== "" && !/[/\\\u0000]/.test(dbId) && dbId !== "." && dbId !== "..";
}

/** One dataset's databases: where they are once unpacked, where the archive comes from, how it unpacks. */
export interface DatabaseSource {
  server: string;
  /** The config key naming the folder (for messages). */
  configKey: string;
  url: string;
  /** The archive's file name under the root. */
  archive: string;
  /** The folder (under the root) that holds the databases once unpacked; it is what gets renamed into place. */
  folder: string;
  /** Whether the databases are in `folder` (a path under the root). */
  ready(folder: string): boolean;
  /** A command that fills the folder on a machine with network, when there is one. */
  prefetch?: string;
  /** Unpacks the archive into `staging`, producing `staging/<folder>`. */
  unpack(archive: string, staging: string): Promise<void>;
}

/** Makes sure `root/<source.folder>` has the databases (downloading and unpacking once), and returns that folder. */
export async function ensureDatabases(root: string, source: DatabaseSource, env: Env = process.env, log: (line: string) => void = (l) => console.error(l)): Promise<string> {
  const target = join(root, source.folder);
  if (source.ready(target)) return target;
  if (existsSync(target)) {
    throw new GymError("E_IO", `${source.server}: ${target} exists but holds no SQLite databases.`, {
      hint: `Delete it so that it is unpacked again from ${source.url}, or point \`${source.configKey}\` at a folder that has the databases.`,
    });
  }
  const archive = join(root, source.archive);
  if (!existsSync(archive)) {
    if (isOffline(env)) {
      const which = isOffline({ GYM_OFFLINE: env.GYM_OFFLINE }) ? "GYM_OFFLINE" : "HF_HUB_OFFLINE";
      throw new GymError("E_IO", `Offline (${which} is set): ${source.server} needs its databases in ${target}, which would be downloaded from ${source.url}.`, {
        hint: `${source.prefetch ? `On a machine with network run \`${source.prefetch}\` with NEMO_GYM_CACHE_DIR=${cacheDir(env)} and copy that folder here, or c` : "C"}opy ${target} from a machine that has it (or download ${source.url} and put it at ${archive}).`,
      });
    }
    mkdirSync(root, { recursive: true });
    log(`${source.server}: downloading its databases from ${source.url} into ${root}`);
    await downloadFile(source.url, archive, { label: `${source.server} databases`, env, headers: { "User-Agent": "Mozilla/5.0" } });
  }
  const staging = join(root, `.unpack-${process.pid}-${basename(source.folder)}`);
  rmSync(staging, { recursive: true, force: true });
  try {
    log(`${source.server}: unpacking ${archive}`);
    await source.unpack(archive, staging);
    if (!source.ready(join(staging, source.folder))) {
      throw new GymError("E_INPUT_ENCODING", `${source.server}: ${archive} unpacked, but no SQLite databases were in it where expected (${source.folder}).`, {
        hint: `Delete ${archive} so that it is downloaded again from ${source.url}.`,
      });
    }
    renameSync(join(staging, source.folder), target);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return target;
}

/** Unzips every entry but macOS resource forks. */
export const unzipAll = (archive: string, folder: string) => unzip(archive, folder, (name) => (name.startsWith("__MACOSX/") ? null : name)).then(() => {});

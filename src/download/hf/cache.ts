/**
 * The Hub cache's layout, as huggingface_hub lays it out: per repo `refs/<revision>` (the commit a branch or
 * tag resolved to last), `blobs/<etag>` (each file's bytes once, named by its sha256 or git blob id) and
 * `snapshots/<commit>/<path>` (the files of one commit, linked to their blobs). Every write is temp + rename.
 */
import * as fs from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../../runtime/files.ts";
import { cacheDir, type Env } from "../cache.ts";

/** A full commit sha: a revision that can never move, so its cached files are served without asking. */
export const isCommitSha = (revision: string) => /^[0-9a-f]{40}$/.test(revision);

/** `<cache>/hf/<datasets|models|spaces>/<repo>`. */
export function hfRepoCacheDir(file: { repoId: string; repoType?: string }, env: Env = process.env): string {
  return join(cacheDir(env), "hf", `${file.repoType ?? "dataset"}s`, ...file.repoId.split("/"));
}

/** One repo's cache folder. */
export class HubCache {
  constructor(readonly dir: string) {}

  /** The commit `revision` resolved to when it was last asked (a commit sha is its own), if known. */
  ref(revision: string): string | undefined {
    if (isCommitSha(revision)) return revision;
    try {
      const commit = fs.readFileSync(this.refPath(revision), "utf8").trim();
      return isCommitSha(commit) ? commit : undefined;
    } catch {
      return undefined;
    }
  }

  setRef(revision: string, commit: string): void {
    if (revision !== commit) writeFileAtomic(this.refPath(revision), commit);
  }

  snapshot(commit: string, path: string): string {
    return join(this.dir, "snapshots", commit, ...path.split("/"));
  }

  blob(name: string): string {
    return join(this.dir, "blobs", name);
  }

  /** Where earlier gym builds kept a file (`<repo>/<revision>/<path>`): read when offline or the Hub is unreachable. */
  legacy(revision: string, path: string): string {
    return join(this.dir, encodeURIComponent(revision), ...path.split("/"));
  }

  /** Puts a blob into a snapshot under its path (a hard link; a copy where links are refused). */
  link(blob: string, commit: string, path: string): string {
    const target = this.snapshot(commit, path);
    fs.mkdirSync(dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.tmp`;
    fs.rmSync(tmp, { force: true });
    try {
      fs.linkSync(blob, tmp);
    } catch {
      fs.copyFileSync(blob, tmp);
    }
    fs.renameSync(tmp, target);
    return target;
  }

  private refPath(revision: string): string {
    return join(this.dir, "refs", encodeURIComponent(revision));
  }
}

/** `<stem>_<exporter>_export_done`: the version-1 receipt of an export — the backend run, the sha256 of each file sent. */
import { createHash } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync, readSync } from "node:fs";
import { basename, join } from "node:path";
import { GymError } from "../errors.ts";
import { writeFileAtomic } from "../runtime/files.ts";
import type { RunPaths } from "../outputs/paths.ts";
import { ROLLOUT_PROJECTION_VERSION } from "./backend.ts";

export interface Receipt {
  version: 1;
  exporter: string;
  backend_run: { id: string; url?: string };
  files: Record<string, { file: string; sha256: string }>;
  rollouts_uploaded: boolean;
  rollout_projection_version: number;
}

export const receiptPath = (paths: RunPaths, exporter: string) => join(paths.dir, `${paths.stem}_${exporter}_export_done`);
export const runIdPath = (paths: RunPaths, exporter: string) => join(paths.dir, `${paths.stem}_${exporter}_run_id`);

/** sha256 of a file, streamed in 1 MiB pieces. */
export function fileSha256(path: string): string {
  const hash = createHash("sha256");
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0; ) hash.update(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}

/** The files an export sends, with their hashes now. */
export function sentFiles(paths: RunPaths, uploadRollouts: boolean): Receipt["files"] {
  const files: Receipt["files"] = {
    resolved_config: { file: basename(paths.resolvedConfig), sha256: fileSha256(paths.resolvedConfig) },
    aggregate_metrics: { file: basename(paths.aggregateMetrics), sha256: fileSha256(paths.aggregateMetrics) },
  };
  if (uploadRollouts) files.rollouts = { file: basename(paths.rollouts), sha256: fileSha256(paths.rollouts) };
  return files;
}

/**
 * The receipt beside a run: undefined when there is none; `matches` when it names exactly these files and options
 * (the export is then skipped without contacting the backend). A legacy, malformed or mismatched one throws.
 */
export function checkReceipt(paths: RunPaths, exporter: string, files: Receipt["files"], uploadRollouts: boolean): Receipt | undefined {
  const path = receiptPath(paths, exporter);
  if (!existsSync(path)) return undefined;
  let receipt: Receipt | undefined;
  try {
    receipt = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    receipt = undefined;
  }
  const leave = "It is left in place: remove it deliberately to export this run again (as a new backend run).";
  if (!receipt || typeof receipt !== "object" || receipt.version !== 1 || !receipt.files || !receipt.backend_run) {
    throw new GymError("E_CHECK_FAILED", `${path} is a legacy or malformed export marker, not a version-1 receipt; nothing was sent.`, { hint: leave });
  }
  const same = receipt.rollouts_uploaded === uploadRollouts && receipt.rollout_projection_version === ROLLOUT_PROJECTION_VERSION && JSON.stringify(sortKeys(receipt.files)) === JSON.stringify(sortKeys(files));
  if (!same) {
    const changed = Object.keys({ ...files, ...receipt.files }).filter((k) => receipt!.files[k]?.sha256 !== files[k]?.sha256);
    throw new GymError("E_CHECK_FAILED", `${path} records an export (run ${receipt.backend_run.id}) of different run files${changed.length ? ` (${changed.join(", ")} changed)` : " or options"}; nothing was sent.`, { hint: leave });
  }
  return receipt;
}

export function writeReceipt(paths: RunPaths, receipt: Receipt): void {
  writeFileAtomic(receiptPath(paths, receipt.exporter), `${JSON.stringify(receipt, null, 2)}\n`);
}

const sortKeys = (o: Record<string, unknown>) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));

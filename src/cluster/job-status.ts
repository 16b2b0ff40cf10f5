/** `gym eval status <gym job id>`: the saved progress of each submitted benchmark, from the paths the submission recorded. */
import * as fs from "node:fs";
import { join } from "node:path";
import { readStatusEntry, type StatusEntry } from "../run/status-read.ts";
import { readIndexEntry, type JobRecord } from "./records.ts";

/** One status entry per status file a benchmark's artifacts hold (shards: one each); unavailable when none can be found. */
export function jobStatusEntries(record: JobRecord): StatusEntry[] {
  const entries: StatusEntry[] = [];
  for (const bench of record.benchmarks) {
    const artifacts = join(bench.job_dir, "artifacts");
    const files = statusFiles(artifacts);
    if (files.length === 0) {
      const why = bench.error
        ? `not submitted: ${bench.error}`
        : fs.existsSync(artifacts)
          ? `no status file yet in ${artifacts} (the job has not started collecting)`
          : `${artifacts} is not mounted or copied here (the submission recorded this path)`;
      entries.push({ path: bench.benchmark, unavailable: why, export: {} });
      continue;
    }
    for (const file of files) {
      const entry = readStatusEntry(file.path);
      entries.push({ ...entry, path: file.shard === undefined ? bench.benchmark : `${bench.benchmark}/${file.shard}` });
    }
  }
  return entries;
}

/** `artifacts/rollouts_batch_status.json`, or for a sharded benchmark the merged one and each `shard-N/`'s. */
function statusFiles(artifacts: string): { path: string; shard?: string }[] {
  const found: { path: string; shard?: string }[] = [];
  const main = join(artifacts, "rollouts_batch_status.json");
  if (fs.existsSync(main)) found.push({ path: main });
  let names: string[] = [];
  try {
    names = fs.readdirSync(artifacts);
  } catch {
    return found;
  }
  const shards = names.filter((n) => /^shard-\d+$/.test(n)).sort((a, b) => Number(a.slice(6)) - Number(b.slice(6)));
  for (const shard of shards) {
    const path = join(artifacts, shard, "rollouts_batch_status.json");
    if (fs.existsSync(path)) found.push({ path, shard });
  }
  return found;
}

export { readIndexEntry };

/** One remote shell that calls sbatch for every benchmark, and the parse of its output into a job id or an error each. */
import type { SubmitConfig } from "./config.ts";
import { shq } from "./shell.ts";

const BEGIN = "__GYM_BENCHMARK:";
const FAILED = "__GYM_SBATCH_FAILED:";

/** A sharded benchmark queues its array, then the aggregate job after every shard succeeded. */
export function sbatchScript(runDir: string, config: SubmitConfig): string {
  const lines = ["set -u"];
  for (const [name, bench] of Object.entries(config.driver.benchmarks)) {
    const dir = `${runDir}/${name}`;
    lines.push(`echo ${shq(`${BEGIN}${name}`)}`);
    if (bench.shards > 1) {
      lines.push(
        `if out=$(sbatch --parsable ${shq(`${dir}/job.sh`)} 2>&1); then`,
        '  id=${out%%;*}; echo "Submitted batch job $id"',
        `  agg=$(sbatch --parsable --dependency=afterok:"$id" --kill-on-invalid-dep=yes ${shq(`${dir}/aggregate.sh`)} 2>&1) && echo "Submitted aggregate job \${agg%%;*}" || echo "${FAILED}aggregate: $agg"`,
        `else echo "${FAILED}$out"; fi`,
      );
    } else {
      lines.push(`out=$(sbatch ${shq(`${dir}/job.sh`)} 2>&1) && echo "$out" || echo "${FAILED}$out"`);
    }
  }
  return `${lines.join("\n")}\n`;
}

export interface SbatchResult {
  job_id?: string;
  aggregate_job_id?: string;
  error?: string;
}

/** Pairs each benchmark with its `Submitted batch job N` line; a benchmark without one records why. */
export function parseSbatchOutput(stdout: string, benchmarks: string[]): Map<string, SbatchResult> {
  const results = new Map<string, SbatchResult>(benchmarks.map((b) => [b, {}]));
  let current: SbatchResult | undefined;
  for (const line of stdout.split("\n")) {
    if (line.startsWith(BEGIN)) {
      current = results.get(line.slice(BEGIN.length));
      continue;
    }
    if (!current) continue;
    const job = /Submitted batch job (\d+)/.exec(line);
    const agg = /Submitted aggregate job (\d+)/.exec(line);
    if (job) current.job_id = job[1];
    else if (agg) current.aggregate_job_id = agg[1];
    else if (line.startsWith(FAILED)) current.error = [current.error, line.slice(FAILED.length).trim()].filter(Boolean).join("; ");
    else if (line.trim() && !current.job_id) current.error = [current.error, line.trim()].filter(Boolean).join("; ");
  }
  for (const r of results.values()) if (!r.job_id && !r.error) r.error = "job ID unavailable (no 'Submitted batch job' line)";
  return results;
}

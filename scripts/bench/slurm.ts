/**
 * Sharded `gym eval submit` on the one-node Slurm (scripts/slurm/up.sh) beside the same benchmark run on this machine:
 * wall time from submit to the merged metrics file, and whether the merged metrics equal the local run's.
 * Usage: bun scripts/bench/slurm.ts [problems=200] [shards=4] [concurrency=8] [latency_ms=50]
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { binary, requireBinary } from "./_util.ts";

requireBinary();
if (spawnSync("sinfo", ["-h"], { timeout: 5000 }).status !== 0) {
  console.error("No Slurm cluster answers sinfo: bring it up with scripts/slurm/up.sh (root).");
  process.exit(1);
}
const [problems, shards, concurrency, latency] = [200, 4, 8, 50].map((d, i) => Number(process.argv[2 + i] ?? d));
const mock = spawn(process.execPath, [join(import.meta.dir, "_serve-mock.ts"), String(latency)], { stdio: ["ignore", "pipe", "inherit"] });
const url = await new Promise<string>((resolve) => mock.stdout!.once("data", (d) => resolve(String(d).trim())));
const dir = mkdtempSync(join(tmpdir(), "gym-bench-slurm-"));
const prepare = { config_paths: ["benchmarks/arithmetic/config.yaml"], prepare_script_args: { num_problems: problems, seed: 1 } };
const run = { config_paths: ["benchmarks/arithmetic/config.yaml", "responses_api_models/openai_model/configs/openai_model.yaml"], policy_base_url: `${url}/v1`, policy_model_name: "mock", policy_api_key: "dummy", num_samples_in_parallel: concurrency };
const env = { ...process.env, XDG_CACHE_HOME: join(dir, "cache") };

const submitConfig = { compute: { local: { type: "slurm", account: "bench" } }, driver: { benchmarks: { bench_shards: { prepare, run, shards } } }, job: { output_path: join(dir, "runs") } };
writeFileSync(join(dir, "submit.yaml"), JSON.stringify(submitConfig));
const t0 = performance.now();
const submitted = spawnSync(binary, ["eval", "submit", "--config", join(dir, "submit.yaml"), "--json"], { encoding: "utf8", env });
if (submitted.status !== 0) throw new Error(submitted.stderr);
const record = JSON.parse(submitted.stdout);
const merged = join(record.run_dir, "bench_shards/artifacts/rollouts_aggregate_metrics.json");
const active = () => spawnSync("squeue", ["-h", "-n", "gym-bench_shards,gym-bench_shards-aggregate"], { encoding: "utf8" }).stdout.trim() !== "";
while (active()) await Bun.sleep(100);
const clusterS = (performance.now() - t0) / 1000;

const flat = (tree: Record<string, unknown>, p = ""): string[] => Object.entries(tree).flatMap(([k, v]) => (v && typeof v === "object" && !Array.isArray(v) ? flat(v as Record<string, unknown>, `${p}${k}.`) : [`+${p}${k}=${Array.isArray(v) ? `[${v.join(",")}]` : v}`]));
const local = (name: string, c: number) => {
  const cwd = join(dir, name);
  mkdirSync(cwd);
  const t = performance.now();
  spawnSync(binary, ["eval", "prepare", ...flat(prepare)], { cwd, env, stdio: "ignore" });
  const r = spawnSync(binary, ["eval", "run", "--output", "r.jsonl", ...flat({ ...run, num_samples_in_parallel: c })], { cwd, env, stdio: "ignore" });
  if (r.status !== 0) throw new Error(`local run exited ${r.status}`);
  return { seconds: (performance.now() - t) / 1000, metrics: readFileSync(join(cwd, "r_aggregate_metrics.json"), "utf8") };
};
const same = local("same", concurrency);
const wide = local("wide", concurrency * shards);
mock.kill();
const equal = existsSync(merged) && JSON.stringify(JSON.parse(readFileSync(merged, "utf8"))) === JSON.stringify(JSON.parse(same.metrics));
console.log(`${problems * 4} rollouts, mock latency ${latency} ms, ${shards} shards × concurrency ${concurrency} (one node, ${spawnSync("nproc", { encoding: "utf8" }).stdout.trim()} cores)`);
console.log(`slurm sharded submit → merged metrics  ${clusterS.toFixed(2)} s`);
console.log(`one local run, concurrency ${String(concurrency).padEnd(4)}        ${same.seconds.toFixed(2)} s   (sharded is ${(same.seconds / clusterS).toFixed(2)}× its speed)`);
console.log(`one local run, concurrency ${String(concurrency * shards).padEnd(4)}        ${wide.seconds.toFixed(2)} s   (sharded is ${(wide.seconds / clusterS).toFixed(2)}× its speed)`);
console.log(`merged metrics equal the local run's: ${equal}`);

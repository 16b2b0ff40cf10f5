/**
 * gym eval submit / resubmit / status on the real one-node Slurm cluster (scripts/slurm/up.sh), driven through the
 * compiled binary; the jobs run the staged binary. Walltime is simulated with `scancel --signal=TERM --full`, which
 * signals every process of the job as Slurm does at walltime (a real 1-minute limit ends jobs only after 67–89 s).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mockModel from "../components/responses_api_models/mock_model/index.ts";
import { serve, type ServedApp } from "../runtime/serve.ts";
import { ensureBinary, gym } from "../testing/binary.ts";
import { scancel, slurmUnavailable, waitFor, waitForNames } from "../testing/slurm.ts";

const why = slurmUnavailable();
if (why) console.warn(`skip: the Slurm end-to-end tests, because ${why}`);
const slurmTest = why ? test.skip : test;

const context = { name: "upstream", serverType: "responses_api_models", implementation: "mock_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} } as const;
const lines = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : []);
const ids = (rows: { _ng_task_index: number; _ng_rollout_index: number }[]) => rows.map((r) => `${r._ng_task_index}-${r._ng_rollout_index}`);
const SECRET = "sk-e2e-secret-value-7f3a";

let dir: string;
let mock: ServedApp;
let slowMock: ServedApp;
const env = () => ({ XDG_CACHE_HOME: join(dir, "cache"), GYM_E2E_SECRET: SECRET });

beforeAll(async () => {
  await ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "gym-slurm-e2e-"));
  mkdirSync(join(dir, "single"));
  mock = await serve((await mockModel({ model: "mock", latency_ms: 1 }, context as never)).fetch);
  slowMock = await serve((await mockModel({ model: "mock", latency_ms: 40 }, context as never)).fetch);
}, 120_000);

afterAll(async () => {
  await mock?.stop();
  await slowMock?.stop();
});

/** A benchmark entry: arithmetic (prepared in the job) against a mock served on loopback by this test. */
function arithmetic(url: string, extra: Record<string, unknown> = {}, problems = 12) {
  return {
    prepare: { config_paths: ["benchmarks/arithmetic/config.yaml"], prepare_script_args: { num_problems: problems, seed: 3 } },
    run: {
      config_paths: ["benchmarks/arithmetic/config.yaml", "responses_api_models/openai_model/configs/openai_model.yaml"],
      policy_base_url: `${url}/v1`, policy_model_name: "mock", policy_api_key: "dummy", num_samples_in_parallel: 2, ...extra,
    },
  };
}

/** Writes a submit YAML (JSON is YAML) and submits it; returns the gym job id and the record. */
async function submit(name: string, benchmarks: Record<string, unknown>, driver: Record<string, unknown> = {}) {
  const config = { compute: { local: { type: "slurm", account: "gym" } }, driver: { env: { GYM_E2E: "host:GYM_E2E_SECRET" }, ...driver, benchmarks }, job: { output_path: join(dir, name) } };
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, JSON.stringify(config, null, 2));
  const r = await gym(["eval", "submit", "--config", file, "--json"], { cwd: dir, env: env() });
  if (r.code !== 0) throw new Error(`submit failed (${r.code}): ${r.stderr}`);
  const record = JSON.parse(r.stdout);
  return { id: record.gym_job_id as string, record, runDir: record.run_dir as string, stderr: r.stderr };
}

/** A run/prepare mapping as the `+a.b=v` tokens the job script passes (values as YAML flow). */
function flat(tree: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v)) return flat(v as Record<string, unknown>, key);
    return [`+${key}=${Array.isArray(v) ? `[${v.join(",")}]` : String(v)}`];
  });
}

describe("gym eval submit on a real Slurm cluster", () => {
  slurmTest("two benchmarks (arithmetic against a mock on loopback, mcqa with replay_model) complete; secrets stay in job.sh", async () => {
    const { id, record, runDir } = await submit("two", {
      e2e_arith: arithmetic(mock.url),
      e2e_mcqa: { run: { config_paths: ["resources_servers/mcqa/configs/mcqa.yaml", "responses_api_models/replay_model/configs/mcqa_example.yaml"] } },
    });
    expect(record.benchmarks.map((b: { job_id?: string }) => typeof b.job_id)).toEqual(["string", "string"]);
    await waitForNames(["gym-e2e_arith", "gym-e2e_mcqa"], 90_000);
    const arith = lines(join(runDir, "e2e_arith/artifacts/rollouts.jsonl"));
    expect(arith.length).toBe(12 * 4);
    expect(new Set(ids(arith)).size).toBe(48);
    const mcqa = lines(join(runDir, "e2e_mcqa/artifacts/rollouts.jsonl"));
    expect(mcqa.length).toBe(5);
    expect(mcqa.filter((r) => r.reward === 1).length).toBe(4); // NeMo Gym's published verdicts: 4 of 5
    expect(readFileSync(join(runDir, "e2e_arith/logs/slurm-" + record.benchmarks[0].job_id + ".out"), "utf8")).toContain("EVAL SUCCEEDED: e2e_arith");
    // Records: host:VAR written back, never the value; job.sh owner-only and the only file that holds it.
    expect(readFileSync(join(runDir, "resolved-config.yaml"), "utf8")).toContain("host:GYM_E2E_SECRET");
    expect(statSync(join(runDir, "e2e_arith/job.sh")).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(runDir, "e2e_arith/job.sh"), "utf8")).toContain(SECRET);
    const holders: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name !== "job.sh" && !p.endsWith("bin/gym") && readFileSync(p, "utf8").includes(SECRET)) holders.push(p);
      }
    };
    walk(runDir);
    walk(join(dir, "cache"));
    expect(holders).toEqual([]);
    // Status from the recorded paths, without the scheduler.
    const status = await gym(["eval", "status", id, "--json"], { cwd: dir, env: env() });
    expect(status.code).toBe(0);
    const doc = JSON.parse(status.stdout);
    expect(doc.e2e_arith).toMatchObject({ expected_rollout_count: 48, completed_rollout_count: 48, aggregation_status: "complete" });
    expect(doc.e2e_mcqa).toMatchObject({ expected_rollout_count: 5, completed_rollout_count: 5 });
    const done = await gym(["eval", "resubmit", id, "e2e_arith", "--recover", "--inspect"], { cwd: dir, env: env() });
    expect(JSON.parse(done.stdout)).toMatchObject({ action: "nothing", gate_task: { status: "SUCCESS", completed: 48, expected: 48 } });
    expect(done.code).toBe(0);
  }, 120_000);

  slurmTest("a job scancel-ed mid-run and resubmitted resumes: no rollout lost or duplicated", async () => {
    const { id, record, runDir } = await submit("cancel", { e2e_cancel: arithmetic(slowMock.url, {}, 40) });
    const rollouts = join(runDir, "e2e_cancel/artifacts/rollouts.jsonl");
    await waitFor("the first rollouts", () => lines(rollouts).length >= 10, 60_000);
    scancel([record.benchmarks[0].job_id]);
    await waitForNames(["gym-e2e_cancel"], 60_000);
    const before = lines(rollouts).length;
    expect(before).toBeLessThan(160);
    const plan = await gym(["eval", "resubmit", id, "e2e_cancel", "--recover", "--inspect"], { cwd: dir, env: env() });
    expect(JSON.parse(plan.stdout)).toMatchObject({ action: "resubmit", gate_task: { status: "PENDING", expected: 160 } });
    expect(plan.code).toBe(1);
    const again = await gym(["eval", "resubmit", id, "e2e_cancel"], { cwd: dir, env: env() });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ action: "resubmit", budgets: "fresh" });
    await waitForNames(["gym-e2e_cancel"], 90_000);
    const after = ids(lines(rollouts));
    expect(after.length).toBe(160);
    expect(new Set(after).size).toBe(160);
    expect(readFileSync(join(runDir, "e2e_cancel/logs/driver.log"), "utf8")).toContain("Resuming");
  }, 180_000);

  slurmTest("walltime mid-run (SIGTERM to every process): the driver drains, exits 75, the next segment completes", async () => {
    const { record, runDir } = await submit("walltime", { e2e_wall: { ...arithmetic(slowMock.url, {}, 40), resumable: { max_retries: 1 } } });
    const bench = join(runDir, "e2e_wall");
    const first = record.benchmarks[0].job_id as string;
    await waitFor("the first rollouts", () => lines(join(bench, "artifacts/rollouts.jsonl")).length >= 10, 60_000);
    scancel(["--signal=TERM", "--full", first]);
    await waitForNames(["gym-e2e_wall"], 120_000);
    const chain = readFileSync(join(bench, ".gym_job_chain"), "utf8").split("\n").filter(Boolean);
    expect(chain.length).toBe(2);
    expect(chain[0]).toBe(first);
    expect(readFileSync(join(bench, `logs/slurm-${chain[1]}.out`), "utf8")).toContain(`previous job ${first}: FAILED exit 75:0`);
    const all = ids(lines(join(bench, "artifacts/rollouts.jsonl")));
    expect(all.length).toBe(160);
    expect(new Set(all).size).toBe(160);
    expect(existsSync(join(bench, ".gym_infra_retries"))).toBe(false); // a walltime segment spends no infrastructure retry
  }, 180_000);

  slurmTest("a sharded submit (array of --disable-aggregation shards + one aggregate job) merges to a single-machine run's metrics", async () => {
    const bench = arithmetic(mock.url, {}, 30);
    const started = performance.now();
    const { record, runDir } = await submit("sharded", { e2e_shards: { ...bench, shards: 3 } });
    expect(record.benchmarks[0]).toMatchObject({ shards: 3, aggregate_job_id: expect.stringMatching(/^\d+$/) });
    const merged = join(runDir, "e2e_shards/artifacts/rollouts_aggregate_metrics.json");
    await waitForNames(["gym-e2e_shards", "gym-e2e_shards-aggregate"], 120_000);
    const clusterSeconds = (performance.now() - started) / 1000;
    expect(existsSync(merged)).toBe(true);
    for (const shard of [0, 1, 2]) expect(lines(join(runDir, `e2e_shards/artifacts/shard-${shard}/rollouts.jsonl`)).length).toBe(40);
    // The same benchmark on this machine, in one process.
    const local = join(dir, "single");
    const localStart = performance.now();
    const prep = await gym(["eval", "prepare", ...flat(bench.prepare)], { cwd: local, env: env() });
    expect(prep.code).toBe(0);
    const run = await gym(["eval", "run", "--output", "single/rollouts.jsonl", ...flat(bench.run)], { cwd: local, env: env() });
    expect(run.code).toBe(0);
    const localSeconds = (performance.now() - localStart) / 1000;
    console.warn(`sharded submit → merged metrics: ${clusterSeconds.toFixed(1)} s on Slurm (3 shards + aggregate); ${localSeconds.toFixed(1)} s as one local run`);
    const mergedRows = ids(lines(join(runDir, "e2e_shards/artifacts/rollouts.jsonl"))).sort();
    expect(mergedRows).toEqual(ids(lines(join(local, "single/rollouts.jsonl"))).sort());
    expect(JSON.parse(readFileSync(merged, "utf8"))).toEqual(JSON.parse(readFileSync(join(local, "single/rollouts_aggregate_metrics.json"), "utf8")));
  }, 180_000);

  slurmTest("sbatch failing for one benchmark records its error and submits the others", async () => {
    const { record } = await submit("partial", {
      e2e_toolarge: { ...arithmetic(mock.url), shards: 5000 },
      e2e_fine: { run: { config_paths: ["resources_servers/mcqa/configs/mcqa.yaml", "responses_api_models/replay_model/configs/mcqa_example.yaml"] } },
    });
    expect(record.benchmarks[0].error).toMatch(/array/i);
    expect(record.benchmarks[0].job_id).toBeUndefined();
    expect(record.benchmarks[1].job_id).toMatch(/^\d+$/);
    await waitForNames(["gym-e2e_fine"], 60_000);
  }, 90_000);
});

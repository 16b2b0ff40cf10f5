/** `gym eval submit` (collection.md §9.2): validate, allocate the id, render, stage, copy, sbatch, record. */
import * as fs from "node:fs";
import { hostname, tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { toYaml } from "../config/index.ts";
import { GymError } from "../errors.ts";
import type { SubmitConfig } from "./config.ts";
import { connect, missingMounts, type Connection } from "./connection.ts";
import { hostSecrets } from "./env.ts";
import { maskForRecord, type LoadedSubmit } from "./load.ts";
import { newGymJobId, writeIndexEntry, type BenchmarkRecord, type JobRecord } from "./records.ts";
import { renderAggregateScript, renderJobScript, type ScriptContext } from "./script.ts";
import { shq } from "./shell.ts";
import { filesHoldingSecrets, gymBinarySource, stageRun, type StagedBenchmark } from "./stage.ts";
import { parseSbatchOutput, sbatchScript } from "./sbatch.ts";

export interface SubmitOptions {
  loaded: LoadedSubmit;
  dryRun: boolean;
  version: string;
  shell?: NodeJS.ProcessEnv;
  info: (m: string) => void;
  warn: (m: string) => void;
  /** Where dry-run text goes (stdout). */
  print: (text: string) => void;
}

/** Renders every benchmark's scripts. `shell` supplies host: values (a masking stand-in for --dry-run). */
export function renderRun(config: SubmitConfig, runDir: string, gymJobId: string, shell: NodeJS.ProcessEnv): StagedBenchmark[] {
  const compute = Object.values(config.compute)[0]!;
  const ctx: ScriptContext = { config, compute, runDir, gymJobId, gymBinary: `${runDir}/bin/gym`, shell };
  return Object.entries(config.driver.benchmarks).map(([name, bench]) => ({
    name,
    script: renderJobScript(ctx, name, bench),
    ...(bench.shards > 1 ? { extra: { "aggregate.sh": renderAggregateScript(ctx, name, bench) } } : {}),
  }));
}

/** Stands in `<host:VAR>` for every host value, so a preview never prints a secret. */
export const maskedShell = standIn("host");

/** An environment whose every variable reads `<kind:NAME>`: what a preview shows instead of values. */
export function standIn(kind: string): NodeJS.ProcessEnv {
  return new Proxy({}, { get: (_t, name) => (typeof name === "string" ? `<${kind}:${name}>` : undefined), has: () => true }) as NodeJS.ProcessEnv;
}

export async function submit(options: SubmitOptions): Promise<JobRecord | null> {
  const { config, tree } = options.loaded;
  const shell = options.shell ?? process.env;
  const gymJobId = newGymJobId();
  const runDir = `${config.job.output_path.replace(/\/+$/, "")}/${gymJobId}`;
  if (options.dryRun) {
    const out = [`[dry-run] remote run dir: ${runDir}`];
    for (const bench of renderRun(config, runDir, gymJobId, maskedShell)) {
      for (const [file, text] of [["job.sh", bench.script], ...Object.entries(bench.extra ?? {})] as [string, string][]) {
        out.push("", "=".repeat(60), `[dry-run] sbatch script for benchmark: ${bench.name}${file === "job.sh" ? "" : ` (${file})`}`, "=".repeat(60), text);
      }
    }
    options.print(`${out.join("\n")}\n`);
    return null;
  }
  const compute = Object.values(config.compute)[0]!;
  const binary = gymBinarySource(shell);
  const conn = connect(compute.hostname);
  try {
    await checkMounts(conn, config, options.loaded.file);
    const benchmarks = renderRun(config, runDir, gymJobId, shell);
    const staging = conn.remote ? fs.mkdtempSync(join(tmpdir(), "gym-submit-")) : `${runDir}.staging`;
    try {
      fs.mkdirSync(staging, { recursive: true });
      stageRun(staging, benchmarks, binary);
      const leaked = filesHoldingSecrets(staging, hostSecrets([config.driver.env, ...Object.values(config.services).map((s) => s.env)], shell));
      if (leaked.length) throw new GymError("E_INTERNAL", `A secret value reached staged files other than job.sh: ${leaked.join(", ")}.`, { hint: "Nothing was submitted; report this as a bug." });
      if (conn.remote) await conn.copy(staging, runDir);
      else fs.renameSync(staging, runDir);
    } finally {
      if (conn.remote || fs.existsSync(staging)) fs.rmSync(staging, { recursive: true, force: true });
    }
    options.info(`Staged ${benchmarks.length} benchmark${benchmarks.length === 1 ? "" : "s"} in ${conn.remote ? `${conn.host}:` : ""}${runDir}`);
    const submitted = await conn.run(sbatchScript(runDir, config));
    const results = parseSbatchOutput(submitted.stdout, Object.keys(config.driver.benchmarks));
    const record: JobRecord = {
      gym_job_id: gymJobId,
      gym_version: options.version,
      submitted_at: new Date().toISOString(),
      run_dir: runDir,
      cluster: Object.keys(config.compute)[0]!,
      executor: "slurm",
      submitted_by: safeUser(),
      hostname: hostname(),
      benchmarks: benchmarks.map((b): BenchmarkRecord => {
        const r = results.get(b.name)!;
        const shards = config.driver.benchmarks[b.name]!.shards;
        return { benchmark: b.name, job_dir: `${runDir}/${b.name}`, ...r, ...(shards > 1 ? { shards } : {}) };
      }),
      executor_metadata: { login_hostname: compute.hostname, account: compute.account },
      schema_version: 1,
    };
    for (const b of record.benchmarks) {
      if (b.error) options.warn(`${b.benchmark}: sbatch failed: ${b.error}`);
      else options.info(`submitted ${b.benchmark} → Slurm job ${b.job_id ?? "(job ID unavailable)"}${b.aggregate_job_id ? ` (aggregate job ${b.aggregate_job_id})` : ""}`);
    }
    writeIndexEntry(record, options.warn, shell);
    await writeRecords(conn, runDir, record, toYaml(maskForRecord(tree)));
    return record;
  } finally {
    conn.close();
  }
}

async function checkMounts(conn: Connection, config: SubmitConfig, file: string): Promise<void> {
  const entries: [string, string][] = config.driver.mounts.map((m, i) => [`driver.mounts[${i}]`, m]);
  for (const [name, s] of Object.entries(config.services)) s.mounts.forEach((m, i) => entries.push([`services.${name}.mounts[${i}]`, m]));
  const missing = await missingMounts(conn, entries.map(([, m]) => m.split(":")[0]!));
  const bad = entries.filter(([, m]) => missing.has(m.split(":")[0]!));
  if (bad.length > 0) {
    throw new GymError("E_CONFIG", `${file}: mount source does not exist${conn.remote ? ` on ${conn.host}` : ""}: ${bad.map(([where, m]) => `${where} '${m.split(":")[0]}'`).join(", ")}.`, {
      hint: "Fix the path (a mount is src, src:dst or src:dst:flags) or create it; nothing was staged.",
    });
  }
}

/** gym-job.json and resolved-config.yaml in the run dir (host:VAR values stay written as host:VAR). */
async function writeRecords(conn: Connection, runDir: string, record: JobRecord, resolvedYaml: string): Promise<void> {
  const json = `${JSON.stringify(record, null, 2)}\n`;
  if (!conn.remote) {
    for (const [file, text] of [["gym-job.json", json], ["resolved-config.yaml", resolvedYaml]] as const) {
      fs.writeFileSync(join(runDir, `${file}.tmp`), text);
      fs.renameSync(join(runDir, `${file}.tmp`), join(runDir, file));
    }
    return;
  }
  const put = (file: string, text: string) => `cat > ${shq(`${runDir}/${file}.tmp`)} <<'GYM_EOF'\n${text}GYM_EOF\nmv ${shq(`${runDir}/${file}.tmp`)} ${shq(`${runDir}/${file}`)}`;
  await conn.run(`${put("gym-job.json", json)}\n${put("resolved-config.yaml", resolvedYaml)}\n`);
}

function safeUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? "unknown";
  }
}

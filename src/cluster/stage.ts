/** Staging a run directory: one folder per benchmark (owner-only job.sh, logs/, artifacts/) and the gym binary under bin/. */
import * as fs from "node:fs";
import { basename, join, relative } from "node:path";
import { GymError } from "../errors.ts";

/** The compiled binary that is running (what the job runs); GYM_BINARY overrides it (e.g. when running from source). */
export function gymBinarySource(env: NodeJS.ProcessEnv = process.env): string {
  if (env.GYM_BINARY) return env.GYM_BINARY;
  const exe = process.execPath;
  if (!/^(bun|node|deno)(\.exe)?$/.test(basename(exe))) return exe;
  throw new GymError("E_CONFIG", `gym eval submit stages the compiled gym binary for the job, but this is running under ${basename(exe)} (${exe}).`, {
    hint: "Run dist/gym eval submit (npm run build makes it), or set GYM_BINARY=/path/to/gym.",
  });
}

export interface StagedBenchmark {
  name: string;
  script: string;
  /** Extra scripts beside job.sh (aggregate.sh for a sharded benchmark). */
  extra?: Record<string, string>;
}

/** Writes the tree under `dir`: bin/gym (hard link when possible), and per benchmark job.sh (0700), logs/, artifacts/. */
export function stageRun(dir: string, benchmarks: StagedBenchmark[], binary: string): void {
  fs.mkdirSync(join(dir, "bin"), { recursive: true, mode: 0o755 });
  const target = join(dir, "bin", "gym");
  try {
    fs.linkSync(binary, target);
  } catch {
    fs.copyFileSync(binary, target);
  }
  fs.chmodSync(target, 0o755);
  for (const bench of benchmarks) {
    const benchDir = join(dir, bench.name);
    fs.mkdirSync(join(benchDir, "logs"), { recursive: true });
    fs.mkdirSync(join(benchDir, "artifacts"), { recursive: true });
    // job.sh holds the resolved host: values, so only its owner may read it.
    fs.writeFileSync(join(benchDir, "job.sh"), bench.script, { mode: 0o700 });
    fs.chmodSync(join(benchDir, "job.sh"), 0o700);
    for (const [file, text] of Object.entries(bench.extra ?? {})) {
      fs.writeFileSync(join(benchDir, file), text, { mode: 0o700 });
      fs.chmodSync(join(benchDir, file), 0o700);
    }
  }
}

/** Files under `dir` (but job.sh and the binary) that contain one of `secrets`: must be none. */
export function filesHoldingSecrets(dir: string, secrets: string[]): string[] {
  if (secrets.length === 0) return [];
  const found: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name !== "job.sh" && relative(dir, path) !== join("bin", "gym")) {
        const text = fs.readFileSync(path, "utf8");
        if (secrets.some((s) => text.includes(s))) found.push(relative(dir, path));
      }
    }
  };
  walk(dir);
  return found;
}

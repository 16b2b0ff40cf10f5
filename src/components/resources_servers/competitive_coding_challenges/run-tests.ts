/**
 * Compiles a solution with the problem's `compile.sh` and runs each test with its `run.sh`, every step in the
 * sandbox (`src/sandbox/`). NeMo Gym recompiles for every test in a fresh copy of the problem folder; the sources
 * are the same each time, so here the folder is compiled once per rollout (a writable bind) and each test runs in
 * a private copy of it under the sandbox's /tmp. A test's score is `float(run.sh's stdout)`, else 0.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Sandbox, SandboxResult } from "../../../sandbox/index.ts";
import { patchRunScript } from "./extract.ts";
import type { Problem } from "./metadata.ts";

export interface TestOutput {
  compile_success: boolean;
  compile_stdout: string;
  compile_stderr: string;
  run_stdout: string;
  run_stderr: string;
  error: string;
  score: number;
  run_time_s?: number;
  test_name?: string;
  test_group?: string;
}

export interface Build {
  dir: string;
  compile: SandboxResult;
  dispose(): void;
}

export interface RunLimits {
  memoryBytes: number;
  /** Processes of one compile or test run (the solution, run.sh, timeout, a checker). */
  processes: number;
}

const COMPILE_SECONDS = 120;

/** The problem folder with the solution, compiled once: `./compile.sh` in the sandbox (NeMo Gym's 120 s limit). */
export async function compileSolution(sandbox: Sandbox, problem: Problem, problemId: string, code: string, taskType: string, limits: RunLimits): Promise<Build> {
  const dir = mkdtempSync(join(tmpdir(), "gym-ccc-"));
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  try {
    mkdirSync(join(dir, "graders"), { recursive: true });
    mkdirSync(join(dir, "tmp"));
    for (const [path, content] of problem.grader_files) {
      const target = join(dir, path);
      if (!target.startsWith(dir + "/")) continue; // a grader path never leaves the folder
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
    writeFileSync(join(dir, "compile.sh"), problem.compile, { mode: 0o755 });
    writeFileSync(join(dir, "run.sh"), patchRunScript(problem.run), { mode: 0o755 });
    if (taskType === "SIMULATION") writeFileSync(join(dir, "solution.odo"), code);
    else writeFileSync(join(dir, "graders", `${problemId}.cpp`), code);
    openToSandboxUser(dir);
    const compile = await sandbox.run({
      argv: ["/bin/bash", "-c", "./compile.sh"],
      binds: [{ host: dir, path: "/work", writable: true }],
      cwd: "/work",
      limits: { wallSeconds: COMPILE_SECONDS, cpuSeconds: COMPILE_SECONDS, memoryBytes: limits.memoryBytes, processes: limits.processes },
    });
    return { dir, compile, dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}

/** The sandbox user (nobody, when gym is root) must write into the folder it compiles in. */
function openToSandboxUser(dir: string): void {
  const walk = (path: string) => {
    chmodSync(path, 0o777);
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) walk(child);
      else chmodSync(child, entry.name.endsWith(".sh") ? 0o777 : 0o666);
    }
  };
  walk(dir);
}

/** One test: a private copy of the compiled folder, the test's files, `TIME_LIMIT_SCALE=<s> ./run.sh`. */
export async function runTest(sandbox: Sandbox, build: Build, test: { input: string; output: string }, timeScale: number, limits: RunLimits): Promise<TestOutput> {
  const result: TestOutput = {
    compile_success: !build.compile.stderr && !build.compile.reason,
    compile_stdout: capText(build.compile.stdout),
    compile_stderr: capText(build.compile.stderr) || (build.compile.reason ?? ""),
    run_stdout: "",
    run_stderr: "",
    error: "",
    score: 0,
  };
  if (!result.compile_success) return result;
  const wall = Math.max(30, Math.trunc(30 * timeScale));
  const script =
    'cp -a /build/. /tmp/w/ && cp /sandbox/input.txt /sandbox/correct_output.txt /tmp/w/ && cd /tmp/w && export TMPDIR=/tmp/w/tmp && TIME_LIMIT_SCALE="$1" exec ./run.sh';
  const started = performance.now();
  const run = await sandbox.run({
    argv: ["/bin/bash", "-c", `mkdir -p /tmp/w && ${script}`, "run", String(timeScale)],
    files: { "input.txt": Buffer.from(test.input, "latin1"), "correct_output.txt": Buffer.from(test.output, "latin1") },
    binds: [{ host: build.dir, path: "/build" }],
    limits: { wallSeconds: wall, cpuSeconds: wall, memoryBytes: limits.memoryBytes, processes: limits.processes, tmpBytes: 1024 ** 3 },
  });
  result.run_time_s = (performance.now() - started) / 1000;
  result.run_stdout = capText(run.stdout);
  result.run_stderr = capText(run.stderr);
  if (run.reason) result.error = run.reason;
  result.score = pyFloat(run.stdout.trim()) ?? 0;
  return result;
}

const KEPT_CHARS = 64 * 1024;

/** A stream as stored in the row: past 64 KiB (a program flooding its output), the head and how much was cut. */
export function capText(text: string): string {
  return text.length <= KEPT_CHARS ? text : `${text.slice(0, KEPT_CHARS)}\n[… ${text.length - KEPT_CHARS} more characters not kept]`;
}

/** Python's `float(text)` for a score line, or null where it raises. */
export function pyFloat(text: string): number | null {
  if (/^[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$/.test(text)) return Number(text.replaceAll("_", ""));
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(text);
  if (!special) return null;
  if (special[2]!.toLowerCase() === "nan") return Number.NaN;
  return special[1] === "-" ? -Infinity : Infinity;
}

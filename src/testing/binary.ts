/** For end-to-end tests: the compiled binary (built once if `npm test` has not built it yet) and a way to run it. */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export const repoRoot = join(import.meta.dir, "..", "..");
export const gymBinary = join(repoRoot, "dist", "gym");

let built: Promise<void> | undefined;

/** Newest modification time of any file under a folder. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds dist/gym unless it is newer than every source file (npm test builds it before the suite). */
export function ensureBinary(): Promise<void> {
  built ??= (async () => {
    if (existsSync(gymBinary) && statSync(gymBinary).mtimeMs >= newestMtime(join(repoRoot, "src"))) return;
    const proc = Bun.spawn([process.execPath, join(repoRoot, "scripts", "build.ts")], { cwd: repoRoot, stdout: "ignore", stderr: "inherit" });
    if ((await proc.exited) !== 0) throw new Error("building dist/gym failed");
  })();
  return built;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion and captures its output. */
export async function run(cmd: string[], options: { cwd?: string; env?: Record<string, string>; stdin?: string } = {}): Promise<RunResult> {
  const proc = Bun.spawn(cmd, {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, NO_COLOR: "1", ...options.env },
    stdin: options.stdin === undefined ? "ignore" : new Blob([options.stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** Runs the compiled binary. */
export async function gym(args: string[], options: Parameters<typeof run>[1] = {}): Promise<RunResult> {
  await ensureBinary();
  return run([gymBinary, ...args], options);
}

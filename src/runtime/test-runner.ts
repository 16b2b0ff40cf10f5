/** Running `bun test` from gym itself: the compiled binary carries Bun (`BUN_BE_BUN=1`), so no Bun install is needed. */
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { GymError } from "../errors.ts";

/** Whether this process is the compiled single binary (its modules live in Bun's embedded file system). */
export const isCompiledBinary = (): boolean => import.meta.url.includes("/$bunfs/") || Boolean(process.argv[1]?.startsWith("/$bunfs/"));

/** Runs `bun test ARGS` in `cwd` with stdio passed through; resolves to its exit code. */
export function runBunTest(args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<number> {
  if (!process.versions.bun) {
    return Promise.reject(new GymError("E_USAGE", "Running TypeScript tests needs the Bun runtime, and this gym runs under another one.", { hint: "Use the gym binary (it carries Bun), or run the tests with `bun test`." }));
  }
  const { command, env } = testRunner(options.cwd, { ...process.env, ...options.env });
  return new Promise((resolve, reject) => {
    const child = spawn(command, ["test", ...args], { cwd: options.cwd, env, stdio: "inherit" });
    child.on("error", (error) => reject(new GymError("E_IO", `Could not start the test runner (${process.execPath}): ${error.message}`)));
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 + 1 : 1)));
  });
}

/**
 * The Bun that runs the tests. BUN_BE_BUN=1 makes the compiled binary act as Bun, but every process the tests
 * start inherits it (Bun's spawn passes the environment the process began with), so a test that starts
 * `dist/gym` would get Bun's help. A real Bun is used when there is one: the checkout's
 * node_modules/.bin/bun (above `cwd`), else `bun` on PATH; the binary itself only when neither exists.
 */
export function testRunner(cwd: string, env: Record<string, string | undefined>): { command: string; env: Record<string, string | undefined> } {
  const clean = { ...env };
  delete clean.BUN_BE_BUN;
  if (!isCompiledBinary()) return { command: process.execPath, env: clean };
  const found = findBun(cwd, env.PATH ?? "");
  if (found) return { command: found, env: clean };
  process.stderr.write("Note: no Bun install found (node_modules/.bin/bun or bun on PATH): the tests run on the Bun inside gym, and a test that starts gym itself gets Bun instead (BUN_BE_BUN=1 is inherited).\n");
  return { command: process.execPath, env: { ...clean, BUN_BE_BUN: "1" } };
}

function findBun(cwd: string, path: string): string | undefined {
  const candidates: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    candidates.push(join(dir, "node_modules", ".bin", "bun"));
    if (dirname(dir) === dir) break;
  }
  for (const dir of path.split(delimiter)) if (dir) candidates.push(join(dir, "bun"));
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

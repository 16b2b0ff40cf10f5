/** Running `bun test` from gym itself: the compiled binary carries Bun (`BUN_BE_BUN=1`), so no Bun install is needed. */
import { spawn } from "node:child_process";
import { GymError } from "../errors.ts";

/** Whether this process is the compiled single binary (its modules live in Bun's embedded file system). */
export const isCompiledBinary = (): boolean => import.meta.url.includes("/$bunfs/") || Boolean(process.argv[1]?.startsWith("/$bunfs/"));

/** Runs `bun test ARGS` in `cwd` with stdio passed through; resolves to its exit code. */
export function runBunTest(args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<number> {
  if (!process.versions.bun) {
    return Promise.reject(new GymError("E_USAGE", "Running TypeScript tests needs the Bun runtime, and this gym runs under another one.", { hint: "Use the gym binary (it carries Bun), or run the tests with `bun test`." }));
  }
  const env = { ...process.env, ...options.env, ...(isCompiledBinary() ? { BUN_BE_BUN: "1" } : {}) };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["test", ...args], { cwd: options.cwd, env, stdio: "inherit" });
    child.on("error", (error) => reject(new GymError("E_IO", `Could not start the test runner (${process.execPath}): ${error.message}`)));
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 + 1 : 1)));
  });
}

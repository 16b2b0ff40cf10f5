/** `gym env test --resources-server NAME | --all`: a server's own TypeScript tests, run by the Bun inside gym with `gym/server-sdk` provided. */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { builtinDir } from "../config/builtin-files.ts";
import { componentRoots } from "../config/index.ts";
import { GymError } from "../errors.ts";
import { isCompiledBinary, runBunTest } from "../runtime/test-runner.ts";
import { findCheckout } from "./dev-tests.ts";

/** The folders of `resources_servers/NAME` under the roots that hold tests (`*.test.ts`), first root first. */
export function serverTestFolders(name: string | undefined, searchDirs: string[], cwd = process.cwd()): string[] {
  // Built-ins' tests ship with the source: the checkout this gym runs from, or the one around the cwd.
  const checkout = findCheckout(cwd);
  const builtins = builtinDir ?? (checkout ? join(checkout, "src", "components") : undefined);
  const dirs = componentRoots({ searchDirs, cwd }).map((r) => (r.kind === "dir" ? resolve(cwd, r.path) : builtins)).filter((d): d is string => Boolean(d));
  const folders: string[] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    const servers = join(dir, "resources_servers");
    if (!existsSync(servers)) continue;
    for (const server of name ? [name] : readdirSync(servers).filter((n) => !n.startsWith("_")).sort()) {
      const folder = join(servers, server);
      // Only folders are servers: resources_servers/ also holds files (LICENSE, README.md).
      if (seen.has(server) || !statSync(folder, { throwIfNoEntry: false })?.isDirectory() || !hasTests(folder)) continue;
      seen.add(server);
      folders.push(folder);
    }
  }
  return folders;
}

function hasTests(folder: string): boolean {
  return readdirSync(folder, { recursive: true, withFileTypes: true }).some((e) => e.isFile() && e.name.endsWith(".test.ts"));
}

/** Runs the tests of the given server folders in one `bun test`; resolves to its exit code. */
export async function runServerTests(name: string | undefined, folders: string[]): Promise<number> {
  if (folders.length === 0) {
    throw new GymError("E_INPUT_NOT_FOUND", name ? `No tests found for resources server '${name}' (no *.test.ts under resources_servers/${name}/ in any root).` : "No resources server with tests was found under the roots.", {
      hint: isCompiledBinary() && !findCheckout() ? "A built-in server's tests ship with gym's source, not the binary: run this inside a gym checkout (or `gym dev test` there); your own servers need --search-dir." : "Pass --search-dir to the folder that holds resources_servers/, or add a NAME.test.ts beside the server's index.ts.",
    });
  }
  const work = mkdtempSync(join(tmpdir(), "gym-env-test-"));
  try {
    const sdk = await sdkModulePath(work);
    const preload = join(work, "preload.ts");
    writeFileSync(preload, `import * as sdk from ${JSON.stringify(sdk)};\nBun.plugin({ name: "gym-server-sdk", setup(build) { build.module("gym/server-sdk", () => ({ exports: { ...sdk }, loader: "object" })); } });\n`);
    return await runBunTest(["--preload", preload, ...folders], { cwd: process.cwd() });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The SDK as a file the test process can import: the source in a checkout, the bundle carried by the binary otherwise. */
async function sdkModulePath(work: string): Promise<string> {
  if (builtinDir) return join(builtinDir, "..", "servers", "sdk.ts");
  const { sdkBundle } = await import("./_sdk-bundle.ts");
  const file = join(work, "server-sdk.js");
  writeFileSync(file, sdkBundle);
  return file;
}

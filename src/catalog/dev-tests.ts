/** `gym dev test`: gym's own test suite with coverage, from a source checkout (the binary carries Bun, not the tests). */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { builtinDir } from "../config/builtin-files.ts";
import { GymError } from "../errors.ts";
import { runBunTest } from "../runtime/test-runner.ts";

/** The checkout to test: the one this gym runs from, else the cwd or a folder above it that is a gym checkout. */
export function findCheckout(cwd = process.cwd()): string | undefined {
  if (builtinDir) return resolve(builtinDir, "..", "..");
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (isCheckout(dir)) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

function isCheckout(dir: string): boolean {
  const manifest = join(dir, "package.json");
  if (!existsSync(manifest) || !existsSync(join(dir, "src", "main.ts"))) return false;
  try {
    return (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "gym";
  } catch {
    return false;
  }
}

/** Runs `bun test --coverage [filters]` in the checkout; resolves to its exit code. */
export async function runDevTests(filters: string[], cwd = process.cwd()): Promise<number> {
  const checkout = findCheckout(cwd);
  if (!checkout) {
    throw new GymError("E_USAGE", "gym dev test runs gym's own test suite, which ships with gym's source, not with the binary, and no gym checkout was found here or above.", {
      hint: "Run it inside a clone of gym's repository (after `npm ci`), or use `gym env test` to test your own servers.",
      exitCode: 1,
    });
  }
  if (!existsSync(join(checkout, "node_modules"))) {
    throw new GymError("E_USAGE", `The checkout at ${checkout} has no node_modules: its tests need its dependencies.`, { hint: `Run \`npm ci\` in ${checkout} first.`, exitCode: 1 });
  }
  return runBunTest(["--coverage", ...filters], { cwd: checkout });
}

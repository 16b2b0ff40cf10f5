/**
 * Running a small JavaScript file with this very runtime (a helper inside a sandbox, where only gym's own
 * executable is at hand): a compiled Bun binary acts as `bun` itself when BUN_BE_BUN=1 is set; `bun` from source
 * is already that. Deno's compiled binaries cannot run another script: null there.
 */
declare const Deno: unknown;

export interface ScriptRunner {
  /** The executable to show inside the sandbox. */
  executable: string;
  /** Variables the executable needs to run a script given as its first argument. */
  env: Record<string, string>;
}

export function scriptRunner(): ScriptRunner | null {
  if (typeof Deno !== "undefined" || typeof Bun === "undefined") return null;
  return { executable: process.execPath, env: { BUN_BE_BUN: "1" } };
}

/** The user's `python3` (the interpreter code benchmarks run), resolved once to the real executable and the folders it needs. */
import { realpathSync } from "node:fs";
import { dirname } from "node:path";
import { GymError } from "../errors.ts";
import { runProbe } from "../runtime/spawn.ts";
import { findProgram } from "./detect.ts";

export interface PythonInfo {
  /** What was asked for: `$GYM_PYTHON`, else `python3` on PATH. */
  command: string;
  /** The real interpreter (`sys.executable`: past pyenv shims and wrapper scripts). */
  executable: string;
  version: string;
  /** Folders the interpreter reads (prefix, base prefix, the executable's real folder), bound read-only into a sandbox. */
  roots: string[];
}

const PROBE = "import sys, json; print(json.dumps([sys.executable, sys.version.split()[0], sys.prefix, sys.base_prefix]))";

let cached: Promise<PythonInfo | null> | undefined;

/** The interpreter, or null when there is none (`gym --version --json` says so; a code server refuses). */
export function detectPython(): Promise<PythonInfo | null> {
  cached ??= probe();
  return cached;
}

function probe(): Promise<PythonInfo | null> {
  return probePython(process.env.GYM_PYTHON || "python3");
}

/** One interpreter (a name on PATH or a path), resolved as detectPython does; null when it does not run. */
export async function probePython(command: string): Promise<PythonInfo | null> {
  const path = command.includes("/") ? command : findProgram(command);
  if (!path) return null;
  const result = await runProbe([path, "-c", PROBE]);
  if (result.exitCode !== 0) return null;
  try {
    const [executable, version, prefix, basePrefix] = JSON.parse(result.stdout.trim()) as string[];
    const real = realpathSync(executable!);
    const roots = [...new Set([prefix!, basePrefix!, dirname(real), dirname(executable!)])].filter((p) => p && p !== "/");
    return { command, executable: executable!, version: version!, roots };
  } catch {
    return null;
  }
}

/** The interpreter, or a GymError that says how to get one. */
export async function requirePython(server: string): Promise<PythonInfo> {
  const info = await detectPython();
  if (info) return info;
  throw new GymError("E_SANDBOX", `${server} runs the model's programs with python3, and no working python3 was found on PATH`, {
    hint: "install Python 3 (apt-get install python3), or point GYM_PYTHON at an interpreter",
  });
}

/**
 * The sandbox for untrusted programs (model-written code): `openSandbox()` checks that bubblewrap works here and
 * refuses otherwise, unless the caller passes the loud opt-out `unsafe_no_sandbox` (NeMo Gym's own behaviour:
 * the program runs as gym's user with only rlimits and timeouts). `sandbox.run()` is one exec with limits; a
 * Harbor-style provider (`exec(handle, command, {cwd, env, timeout_s})` → `{stdout, stderr, return_code,
 * error_type}`) maps onto it: a limit is `return_code 125` with `error_type "timeout"` or `"sandbox"`.
 */
import { GymError } from "../errors.ts";
import { CgroupPool } from "./cgroups.ts";
import { detectSandbox, type SandboxInfo } from "./detect.ts";
import { runSandboxed, type RunContext, type SandboxRequest, type SandboxResult } from "./run.ts";

export { detectSandbox, type SandboxInfo } from "./detect.ts";
export { detectPython, probePython, requirePython, type PythonInfo } from "./python.ts";
export { DEFAULT_LIMITS, type SandboxLimit, type SandboxLimits, type SandboxRequest, type SandboxResult } from "./run.ts";

/** `bwrap` (default; refuses without bubblewrap) or the explicit opt-out. */
export type SandboxMode = "bwrap" | "unsafe_no_sandbox";
export const SANDBOX_MODES: readonly SandboxMode[] = ["bwrap", "unsafe_no_sandbox"];

export interface Sandbox {
  info: SandboxInfo;
  mode: SandboxMode;
  run(request: SandboxRequest): Promise<SandboxResult>;
}

let pool: CgroupPool | null | undefined;
let warned = false;

/** The mode asked for: the server config's `sandbox` key, else `$GYM_SANDBOX`, else `bwrap`. */
export function sandboxMode(configured?: string | null): SandboxMode {
  const mode = configured || process.env.GYM_SANDBOX || "bwrap";
  if ((SANDBOX_MODES as readonly string[]).includes(mode)) return mode as SandboxMode;
  throw new GymError("E_CONFIG", `unknown sandbox mode ${JSON.stringify(mode)}`, { hint: `use one of: ${SANDBOX_MODES.join(", ")}` });
}

/** A sandbox ready to run programs, or a GymError naming what is missing and the opt-out. */
export async function openSandbox(mode: SandboxMode = "bwrap", who = "this server"): Promise<Sandbox> {
  const info = await detectSandbox();
  if (mode === "bwrap" && info.kind !== "bwrap") {
    throw new GymError("E_SANDBOX", `${who} runs model-written programs and needs a sandbox, but ${info.reason}`, {
      hint:
        "install bubblewrap (apt-get install bubblewrap), or accept running untrusted code unsandboxed as NeMo Gym does " +
        "with GYM_SANDBOX=unsafe_no_sandbox (or the server's `sandbox: unsafe_no_sandbox` key)",
    });
  }
  if (mode === "unsafe_no_sandbox" && !warned) {
    warned = true;
    process.stderr.write(
      `WARNING: ${who} runs model-written programs WITHOUT A SANDBOX (unsafe_no_sandbox): they can read your files and reach the network as ${process.env.USER ?? "this user"}.\n`,
    );
  }
  pool ??= CgroupPool.open(info.limits);
  const context: RunContext = { info, pool, unsandboxed: mode === "unsafe_no_sandbox" };
  return { info, mode, run: (request) => runSandboxed(context, request) };
}
export { runPythonHarness, type HarnessOutcome } from "./harness.ts";

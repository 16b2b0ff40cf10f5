/**
 * EvalRDL: its SDK is a Python package served only by the EvalRDL service's own index (`<service>/v1/client/simple/`),
 * run in a uv-managed environment, and the service documents no HTTP API that a binary could call instead.
 */
import { spawnSync } from "node:child_process";

/** Why gym cannot export to EvalRDL on this machine, naming what is missing. */
export function evalrdlRefusal(): string {
  const uv = spawnSync("uv", ["--version"], { encoding: "utf8" });
  const missing = uv.error ? "`uv` is not on PATH (the seed's exporter runs the SDK in a uv-managed environment)" : `uv ${uv.stdout.trim()} is here, but gym does not drive the EvalRDL Python SDK, whose interface is not public`;
  return `evalrdl uploads through the EvalRDL Python SDK, served only by the EvalRDL service (no public HTTP API); ${missing}`;
}

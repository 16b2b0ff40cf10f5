/** `gym --version [--json]`: version, runtime, dependencies and system information. */
import pkg from "../../package.json" with { type: "json" };
import { runtimeInfo, systemInfo } from "../runtime/info.ts";
import { detectPython, detectSandbox } from "../sandbox/index.ts";

/** The version this binary reports: NeMo Gym's CLI version it is compatible with. */
export const VERSION = pkg.version;

export function versionReport() {
  const runtime = runtimeInfo();
  return {
    nemo_gym: VERSION,
    gym: VERSION,
    runtime: runtime.name,
    runtime_version: runtime.version,
    runtime_path: runtime.path,
    installation_path: process.execPath,
    dependencies: { ...pkg.dependencies },
    system: systemInfo(),
  };
}

/** The sandbox code benchmarks run in, and the python3 they run (probed: only `--version` pays for it). */
async function codeExecution() {
  const [sandbox, python] = await Promise.all([detectSandbox(), detectPython()]);
  return {
    sandbox: { kind: sandbox.kind, bwrap: sandbox.bwrap, runs_as: sandbox.user, limits: sandbox.limits, reason: sandbox.reason },
    python: python && { command: python.command, executable: python.executable, version: python.version },
  };
}

export async function printVersion(json: boolean): Promise<void> {
  const report = { ...versionReport(), ...(await codeExecution()) };
  if (json) {
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return;
  }
  const sb = report.sandbox;
  const sandboxLine = sb.kind === "bwrap" ? `bubblewrap ${sb.bwrap!.version} (${sb.bwrap!.path}), programs run as ${sb.runs_as}, limits via ${sb.limits}` : `none (${sb.reason})`;
  const deps = Object.entries(report.dependencies).map(([name, version]) => `  ${name} ${version}`);
  const s = report.system;
  process.stdout.write(
    [
      `gym ${report.gym} (NeMo Gym ${report.nemo_gym} compatible)`,
      `Runtime: ${report.runtime} ${report.runtime_version} (${report.runtime_path})`,
      `Installation: ${report.installation_path}`,
      "Dependencies:",
      ...deps,
      `System: ${s.os} ${s.architecture}, ${s.cpus} CPUs, ${s.memory_gb} GB memory`,
      `Platform: ${s.platform}`,
      `Processor: ${s.processor}`,
      `Sandbox: ${sandboxLine}`,
      `Python: ${report.python ? `${report.python.version} (${report.python.executable})` : "not found (code benchmarks need python3)"}`,
      "",
    ].join("\n"),
  );
}

/** `gym --version [--json]`: version, runtime, dependencies and system information. */
import pkg from "../../package.json" with { type: "json" };
import { runtimeInfo, systemInfo } from "../runtime/info.ts";

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

export async function printVersion(json: boolean): Promise<void> {
  const report = versionReport();
  if (json) {
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return;
  }
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
      "",
    ].join("\n"),
  );
}

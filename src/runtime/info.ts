/** Facts about the runtime and machine, for `gym --version` and run manifests. */
import * as os from "node:os";

declare const Deno: { version: { deno: string } } | undefined;

export interface RuntimeInfo {
  name: "bun" | "deno" | "node";
  version: string;
  path: string;
}

export function runtimeInfo(): RuntimeInfo {
  if (typeof Deno !== "undefined") return { name: "deno", version: Deno.version.deno, path: process.execPath };
  if (process.versions.bun) return { name: "bun", version: process.versions.bun, path: process.execPath };
  return { name: "node", version: process.versions.node, path: process.execPath };
}

export function systemInfo() {
  return {
    os: os.type(),
    platform: `${os.type()}-${os.release()}-${os.machine?.() ?? os.arch()}`,
    architecture: os.arch(),
    processor: os.cpus()[0]?.model ?? "",
    cpus: os.availableParallelism?.() ?? os.cpus().length,
    memory_gb: Math.round((os.totalmem() / 1024 ** 3) * 100) / 100,
  };
}

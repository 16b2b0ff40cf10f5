/** What `env validate NAME`, `env test NAME` and `env publish NAME` share: the workload flags and the root views. */
import { allValues } from "../_command.ts";
import { GymError } from "../../errors.ts";

export const workloadArgs = {
  kind: { type: "string", description: "environment or benchmark (when both trees hold NAME)", valueHint: "KIND" },
} as const;

/** The options of a workload command: `--kind` checked, `--search-dir` roots, the cwd. */
export async function workloadOptions(args: Record<string, unknown>, rawArgs: string[]) {
  const kind = args.kind as string | undefined;
  if (kind !== undefined && kind !== "environment" && kind !== "benchmark") {
    throw new GymError("E_USAGE", `--kind must be environment or benchmark (got '${kind}').`, { hint: "e.g. --kind benchmark" });
  }
  const { rootViews } = await import("../../catalog/components.ts");
  const searchDirs = allValues(rawArgs, "search-dir");
  return { views: rootViews({ searchDirs }), options: { kind: kind as "environment" | "benchmark" | undefined, searchDirs, cwd: process.cwd() } };
}

/** Prints a report: JSON on stdout with --json, else the lines given. */
export function printReport(json: boolean, report: unknown, lines: () => string[]): void {
  process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : `${lines().join("\n")}\n`);
}

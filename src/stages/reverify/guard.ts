/** Reverify's output-path guard: no file it writes may be one it reads (judge recovery appends in place). */
import { resolve } from "node:path";
import { guardOutputs } from "../../outputs/guard.ts";
import { runPaths } from "../../outputs/paths.ts";

/** No output of reverify (its failures and metrics sidecars included) may be a file it reads; judge recovery appends in place. */
export function guardReverify(inputs: string, rollouts: string, output: string, judgeInPlace: boolean): void {
  const read = runPaths(rollouts === "-" ? "rollouts.jsonl" : rollouts);
  const written = runPaths(output === "-" ? "-.jsonl" : output);
  const inPlace = judgeInPlace && output !== "-" && rollouts !== "-" && resolve(output) === resolve(rollouts);
  guardOutputs(
    [
      { path: inputs, role: "--inputs" },
      { path: rollouts, role: "--rollouts" },
      ...(rollouts === "-" ? [] : [{ path: read.failures, role: "the failures sidecar of --rollouts" }]),
    ],
    output === "-" ? [] : [
      { path: output, role: "--output" },
      { path: written.failures, role: "the failures sidecar (named from --output)" },
      { path: written.aggregateMetrics, role: "the metrics file (named from --output)" },
    ],
    {
      command: "gym eval reverify",
      suggestion: "Write the recomputed rollouts to a new file, e.g. --output results/rollouts_reverified.jsonl (judge recovery in place: --judge-failed-only --append).",
      allowSame: (_, i) => inPlace && i.role !== "--inputs",
    },
  );
}

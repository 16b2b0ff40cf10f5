/** Reverify's option checks, all made before any file is read or written (collection.md §6.1). */
import { resolve } from "node:path";
import { GymError } from "../../errors.ts";

interface Checked {
  inputs: string;
  rollouts: string;
  output: string;
  overwrite?: boolean;
  resume?: boolean;
  judgeFailedOnly?: boolean;
  append?: boolean;
  concurrency?: number;
  limit?: number;
}

const usage = (message: string, hint: string) => new GymError("E_USAGE", message, { hint });

/** Throws a usage error for an impossible combination of options. */
export function validateReverifyOptions(o: Checked): void {
  if (o.append && !o.judgeFailedOnly) throw usage("--append is only valid together with --judge-failed-only.", "Add --judge-failed-only, or drop --append (use --resume to continue a partial output).");
  if (o.append && o.overwrite) throw usage("--append and --overwrite are mutually exclusive: one appends to the output, the other clears it.", "Pick one of them.");
  if (o.inputs === "-" && o.rollouts === "-") throw usage("--inputs and --rollouts cannot both read stdin.", "Pass a file path for at least one of them.");
  if (o.judgeFailedOnly && o.rollouts === "-") throw usage("--judge-failed-only reads the failures sidecar beside --rollouts, so --rollouts must be a file, not stdin.", "Pass the run's rollouts file, e.g. --rollouts results/rollouts.jsonl.");
  if (o.output === "-" && (o.resume || o.append)) throw usage(`--${o.resume ? "resume" : "append"} needs an output file to continue, not stdout.`, "Pass --output PATH.");
  if (o.output !== "-") {
    const output = resolve(o.output);
    if (o.inputs !== "-" && output === resolve(o.inputs)) throw usage("--output is the --inputs file; reverify would overwrite its own input.", "Write the recomputed rollouts to a new file, e.g. --output results/rollouts_reverified.jsonl.");
    // Only judge recovery may write into --rollouts, and only by appending (--append, or --resume of that file).
    if (o.rollouts !== "-" && output === resolve(o.rollouts) && !(o.judgeFailedOnly && (o.append || o.resume))) {
      throw usage("--output is the --rollouts file; reverify would overwrite the rollouts it reads.", "Write to a new file, or recover judge failures in place with --judge-failed-only --append.");
    }
  }
  for (const [flag, value] of [["concurrency", o.concurrency], ["limit", o.limit]] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
      throw new GymError("E_BAD_FLAG_VALUE", `--${flag} expects a whole number ≥ 1, got ${value}.`, { hint: `For example --${flag} 8.` });
    }
  }
}

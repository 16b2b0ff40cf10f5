/** `gym dev compare OLD NEW`: per-task parity report between two rollout files (a migration aid). */
import { defineGymCommand } from "../_command.ts";
import { EXIT, GymError } from "../../errors.ts";
import type { Flip, ParityReport } from "../../stages/dev-compare/index.ts";

export default defineGymCommand({
  meta: { name: "dev compare", description: "Per-task parity report between two rollout files (migration aid)" },
  args: {
    old: { type: "positional", description: "The reference rollouts (e.g. the legacy server's)", valueHint: "OLD" },
    new: { type: "positional", description: "The rollouts to check against it", valueHint: "NEW" },
    key: { type: "string", description: "Field naming the task (dotted path allowed); default: _ng_task_id, task_id, task_name, verifier_metadata.task_id, _ng_task_index, else the prompt", valueHint: "FIELD" },
    tail: { type: "string", description: "Lines of the losing side's verifier output shown per flip (default 15)", valueHint: "N" },
    "logs-root": { type: "string", description: "Where else to look for verifier_logs_dir (after each file's folder and the current directory)", valueHint: "DIR" },
    json: { type: "string", description: "Write the JSON summary to PATH (bare --json, or `gym --json dev compare`, prints it on stdout instead of the report)", valueHint: "PATH" },
  },
  examples: [
    "gym dev compare old/rollouts.jsonl new/rollouts.jsonl",
    "gym dev compare old/rollouts.jsonl new/rollouts.jsonl --logs-root environment_servers/harbor --json compare.json",
    "gym --json dev compare old.jsonl new.jsonl --key verifier_metadata.task_id",
    "Exit 0 for a report, whatever it finds; 1 when an input cannot be read or the --json PATH cannot be written.",
  ],
  async run({ args, rawArgs }) {
    const oldPath = args.old as string | undefined;
    const newPath = args.new as string | undefined;
    if (!oldPath || !newPath) throw new GymError("E_MISSING_ARGUMENT", "gym dev compare needs two rollout files: OLD and NEW.", { hint: "e.g. gym dev compare old/rollouts.jsonl new/rollouts.jsonl" });
    if (oldPath === "-" && newPath === "-") throw new GymError("E_USAGE", "OLD and NEW cannot both be stdin (-).", { hint: "Give at least one of them as a file." });
    const tail = args.tail === undefined ? 15 : Number(args.tail);
    if (!Number.isInteger(tail) || tail < 0) throw new GymError("E_BAD_FLAG_VALUE", `--tail must be a whole number ≥ 0, got '${args.tail}'.`, { hint: "e.g. --tail 30" });
    const { jsonPath, jsonStdout } = jsonTargets(rawArgs);
    const { guardOutputs } = await import("../../outputs/guard.ts");
    guardOutputs([{ path: oldPath, role: "OLD" }, { path: newPath, role: "NEW" }], jsonPath ? [{ path: jsonPath, role: "--json" }] : [], { command: "gym dev compare", suggestion: "Write the JSON summary to a new file, e.g. --json compare.json." });
    const { compareRolloutFiles } = await import("../../stages/dev-compare/index.ts");
    const report = await compareRolloutFiles(oldPath, newPath, {
      key: args.key,
      tail,
      logsRoot: args["logs-root"],
      warn: (m) => void process.stderr.write(`Warning: ${m}\n`),
    });
    if (jsonPath) {
      const { writeFileAtomic } = await import("../../runtime/files.ts");
      try {
        writeFileAtomic(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
      } catch (error) {
        throw new GymError("E_IO", `Cannot write the JSON summary to ${jsonPath}: ${(error as Error).message}`, { hint: "Check that the folder exists and is writable, or choose another --json PATH." });
      }
    }
    await print(jsonStdout ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    if (jsonPath) process.stderr.write(`JSON summary written to ${jsonPath}\n`);
    // A report is a success whatever it finds (NeMo Gym 0.7.0): differences are for a person to judge.
    return EXIT.ok;
  },
});

/** `--json PATH` writes a file; a bare `--json` (or `--json -`, or `gym --json dev compare`) means stdout. */
function jsonTargets(rawArgs: string[]): { jsonPath?: string; jsonStdout: boolean } {
  let jsonPath: string | undefined;
  let jsonStdout = false;
  for (let i = 0; i < rawArgs.length; i++) {
    const token = rawArgs[i]!;
    const value = token.startsWith("--json=") ? token.slice(7) : token === "--json" && i + 1 < rawArgs.length && !rawArgs[i + 1]!.startsWith("--") ? rawArgs[++i]! : token === "--json" ? "" : undefined;
    if (value === undefined) continue;
    if (value === "" || value === "-") jsonStdout = true;
    else jsonPath = value;
  }
  return { jsonPath, jsonStdout };
}

function formatReport(r: ParityReport): string {
  const out: string[] = [];
  const side = (s: ParityReport["old"], name: string) =>
    `${name}: ${s.path}  ${s.rows} rows, ${s.tasks} tasks${s.failures_folded ? `, ${s.failures_folded} failures folded in` : ""}, mean reward ${num(s.mean_reward)}  (keyed by ${Object.entries(s.keyed_by).map(([k, n]) => `${k} ${n}`).join(", ") || "-"})`;
  out.push(side(r.old, "old"), side(r.new, "new"));
  const c = r.counts;
  out.push(`tasks: ${c.tasks}  identical ${c.identical}  flipped ${c.flipped} (old-win ${c.old_win}, new-win ${c.new_win})  rerun candidates ${c.rerun_candidates}  masked ${c.masked}  missing ${c.missing}`);
  out.push(`mean reward over shared scored tasks: old ${num(r.shared_mean_reward.old)}  new ${num(r.shared_mean_reward.new)}`);
  const flips = (title: string, list: Flip[]) => {
    if (list.length === 0) return;
    out.push("", `${title} (${list.length})`);
    for (const f of list) {
      const kind = (k?: string) => (k ? ` [${k}]` : "");
      const err = f.agent_error ? `  agent error: ${f.agent_error.join(", ")}` : "";
      out.push(`  ${f.task}  old ${num(f.old_reward)}${kind(f.old_failure_kind)}  new ${num(f.new_reward)}${kind(f.new_failure_kind)}${err}`);
      if (f.log.unavailable) out.push(`    verifier output (${f.log.side}): unavailable: ${f.log.unavailable}`);
      else {
        out.push(`    verifier output (${f.log.side}, last ${r.tail} lines of ${f.log.source === "test_output" ? "test_output" : f.log.path}):`);
        for (const line of f.log.lines ?? []) out.push(`    | ${line}`);
      }
    }
  };
  flips("Flipped: old wins", r.flips.filter((f) => f.winner === "old"));
  flips("Flipped: new wins", r.flips.filter((f) => f.winner === "new"));
  flips("Rerun candidates (flip with an agent error)", r.rerun_candidates);
  if (r.masked.length > 0) {
    out.push("", `Masked (${r.masked.length})`);
    for (const m of r.masked) out.push(`  ${m.task}  ${[m.old && `old: ${m.old}`, m.new && `new: ${m.new}`].filter(Boolean).join("  ")}`);
  }
  if (r.missing.length > 0) {
    out.push("", `Missing (${r.missing.length})`);
    for (const m of r.missing) out.push(`  ${m.task}  only in ${m.only_in}${m.ambiguous_in ? `  (ambiguous: the id recurs in tasksets ${m.ambiguous_in.join(", ")})` : ""}`);
  }
  return `${out.join("\n")}\n`;
}

/** Numbers as Python prints them in NeMo Gym's reports (`1.0`, `0.5`). */
function num(x: number | null): string {
  if (x === null) return "-";
  return Number.isInteger(x) ? x.toFixed(1) : String(x);
}

/** Writes to stdout and waits until it is handed to the OS: the process exits right after, and a pipe takes large writes in pieces. */
function print(text: string): Promise<void> {
  return new Promise((resolve) => void process.stdout.write(text, () => resolve()));
}

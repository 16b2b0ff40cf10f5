/** For tests: NeMo Gym's published example rollouts of a server, re-scored by `gym eval reverify` on the compiled binary. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "./binary.ts";

type Row = Record<string, any>;

export interface PublishedRescore {
  code: number;
  stderr: string;
  /** The re-verified rows, in task order. */
  rows: Row[];
  /** The `<stem>_aggregate_metrics.json` document. */
  metrics: unknown;
}

/**
 * Writes the rollouts (stamped with task indexes where they have none) and their materialized inputs (each rollout
 * without the fields the server writes: `outputs`), runs `gym eval reverify --resources-server <server>` (with
 * `--force` for a server whose reverify mode is unknown) and reads what it wrote.
 */
export async function reverifyPublished(server: string, rollouts: Row[], outputs: string[], options: { force?: boolean; args?: string[] } = {}): Promise<PublishedRescore> {
  const work = mkdtempSync(join(tmpdir(), `gym-${server}-`));
  try {
    const stamped = rollouts.map((r, i) => ({ ...r, _ng_task_index: r._ng_task_index ?? i, _ng_rollout_index: r._ng_rollout_index ?? 0, agent_ref: r.agent_ref ?? { name: `${server}_simple_agent` } }));
    const inputs = stamped.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => k !== "response" && !outputs.includes(k))));
    const lines = (rows: Row[]) => `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`;
    writeFileSync(join(work, "rollouts_materialized_inputs.jsonl"), lines(inputs));
    writeFileSync(join(work, "rollouts.jsonl"), lines(stamped));
    const args = ["eval", "reverify", "--resources-server", server, "--inputs", join(work, "rollouts_materialized_inputs.jsonl"), "--rollouts", join(work, "rollouts.jsonl"), "-o", join(work, "reverified.jsonl")];
    const r = await gym([...args, ...(options.force ? ["--force"] : []), ...(options.args ?? [])]);
    if (r.code !== 0) return { code: r.code, stderr: r.stderr, rows: [], metrics: null };
    const stem = options.force ? "unsafe_reverified" : "reverified";
    const rows = readFileSync(join(work, `${stem}.jsonl`), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Row);
    rows.sort((a, b) => a._ng_task_index - b._ng_task_index || a._ng_rollout_index - b._ng_rollout_index);
    const metrics = JSON.parse(readFileSync(join(work, `${stem}_aggregate_metrics.json`), "utf8"));
    return { code: r.code, stderr: r.stderr, rows, metrics };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

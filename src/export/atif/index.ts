/**
 * `gym eval export atif`: a rollouts file's `ng_trajectory` attachments as ATIF v1.7, one `<task>-<rollout>.json`
 * per rollout plus `manifest.jsonl`. Every row is checked first and all problems are reported together; the files
 * are staged in a temporary folder and renamed into place, so a failed export publishes nothing.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { GymError } from "../../errors.ts";
import { readJsonl } from "../../jsonl/read.ts";
import { sha256 } from "../../outputs/digest.ts";
import { toAtif } from "./convert.ts";

export interface AtifExportOptions {
  rolloutsPath: string;
  outputDir: string;
  sessionId: string;
  agentVersion: string;
  exporterVersion: string;
}

const isIndex = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;

export async function exportAtif(o: AtifExportOptions): Promise<{ dir: string; trajectories: number }> {
  for (const [key, value] of [["session_id", o.sessionId], ["agent_version", o.agentVersion]] as const) {
    if (!value?.trim()) throw new GymError("E_MISSING_ARGUMENT", `gym eval export atif needs +${key}=… (non-blank).`, { hint: "e.g. +session_id=eval-2026-08-25 +agent_version=1.2.3" });
  }
  const out = resolve(o.outputDir);
  if (existsSync(out)) throw new GymError("E_OUTPUT_EXISTS", `The destination ${out} already exists.`, { hint: "ATIF exports go to a new folder: pick another +output_dirpath, or move the old one away." });
  const problems: string[] = [];
  const documents: { name: string; text: string; task: number; rollout: number }[] = [];
  const seen = new Map<string, number>();
  let agentName: string | undefined;
  for await (const record of readJsonl(o.rolloutsPath)) {
    const where = `${o.rolloutsPath}:${record.line}`;
    const row = record.value as Record<string, any>;
    const task = row?._ng_task_index;
    const rollout = row?._ng_rollout_index;
    if (!isIndex(task) || !isIndex(rollout)) {
      problems.push(`${where}: _ng_task_index and _ng_rollout_index must be non-negative integers (got ${JSON.stringify(task)}, ${JSON.stringify(rollout)})`);
      continue;
    }
    const key = `${task}-${rollout}`;
    if (seen.has(key)) problems.push(`${where}: rollout (${task}, ${rollout}) appears again (first at line ${seen.get(key)})`);
    seen.set(key, record.line);
    const name = row.agent_ref?.name;
    if (typeof name !== "string" || !name) problems.push(`${where}: agent_ref.name is missing`);
    else if (agentName && name !== agentName) problems.push(`${where}: agent_ref.name '${name}' differs from '${agentName}': export one agent per file`);
    else agentName = name;
    const converted = toAtif(row.ng_trajectory, { sessionId: o.sessionId, agentName: name ?? "", agentVersion: o.agentVersion, exporterVersion: o.exporterVersion, taskIndex: task, rolloutIndex: rollout });
    problems.push(...converted.problems.map((p) => `${where}: ${p}`));
    if (converted.atif) documents.push({ name: `${key}.json`, text: `${JSON.stringify(converted.atif, null, 2)}\n`, task, rollout });
  }
  if (!problems.length && !documents.length) problems.push(`${o.rolloutsPath} holds no rollouts`);
  if (problems.length) {
    const shown = problems.slice(0, 20).map((p) => `  - ${p}`).join("\n");
    throw new GymError("E_INPUT_SCHEMA", `${problems.length} problem(s) keep ${o.rolloutsPath} from an ATIF export; nothing was written:\n${shown}${problems.length > 20 ? `\n  (and ${problems.length - 20} more)` : ""}`, {
      hint: "The export is strict: it refuses what ATIF v1.7's profile cannot hold instead of dropping it. Trajectories are recorded by `gym eval run … +observability_enabled=true`.",
    });
  }
  const staging = join(dirname(out), `.${basename(out)}.${process.pid}.tmp`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const manifest: string[] = [];
    for (const doc of documents.sort((a, b) => a.task - b.task || a.rollout - b.rollout)) {
      writeFileSync(join(staging, doc.name), doc.text);
      const sha = sha256(doc.text);
      manifest.push(JSON.stringify({ _ng_rollout_index: doc.rollout, _ng_task_index: doc.task, expected_sha256: sha, trajectory_path: doc.name }));
    }
    writeFileSync(join(staging, "manifest.jsonl"), `${manifest.join("\n")}\n`);
    renameSync(staging, out);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  return { dir: out, trajectories: documents.length };
}

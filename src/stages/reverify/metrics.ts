/** Reverify's aggregate metrics: the whole output, sorted, posted to each RESOURCES server's /aggregate_metrics (agents may not run). */
import { GymError } from "../../errors.ts";
import type { Row } from "../../jsonl/read.ts";
import { readLines } from "../../jsonl/lines.ts";
import { parsePythonJson, stringifyPython } from "../../metrics/pyjson.ts";
import { parseRolloutLine } from "../../jsonl/rollout-rows.ts";
import { indexValue, stripForAggregate } from "../../metrics/records.ts";
import { writeFileAtomic } from "../../runtime/files.ts";
import type { ServerDirectory } from "../../servers/client.ts";
import { isEvidenceRow } from "../../outputs/store.ts";
import type { Router } from "./route.ts";

interface Group {
  agent: string;
  server: string;
  rows: Row[];
}

/**
 * Re-reads `output` (cached + new rows), sorts by (task, rollout), groups by (agent name, resources server)
 * with the same routing as /verify, and writes one entry per group to `target` — after the last write to
 * the output. Top-level fields and usage are parsed Python-typed, so `1.0` reaches the server as a float. Returns null (and
 * writes nothing) when the output has no rows, as NeMo Gym does.
 */
export async function writeReverifyMetrics(output: string, target: string, router: Router, servers: ServerDirectory): Promise<Row[] | null> {
  const rows: Row[] = [];
  let line = 0;
  const lines = new Map<Row, number>();
  for await (const l of readLines(output)) {
    line = l.line;
    if (l.text.trim() === "" || (!l.terminated && !looksComplete(l.text))) continue;
    let row: Row;
    try {
      row = parseRolloutLine(l.text);
    } catch {
      throw new GymError("E_INPUT_JSON", `${output}:${l.line}: invalid JSON in the output, so aggregate metrics cannot be computed.`, { hint: "Fix or delete that line, then compute metrics with `gym eval aggregate`." });
    }
    if (isEvidenceRow(row)) continue;
    const stripped = stripForAggregate(row);
    lines.set(stripped, line);
    rows.push(stripped);
  }
  if (rows.length === 0) return null;
  rows.sort((a, b) => indexValue(a, "_ng_task_index") - indexValue(b, "_ng_task_index") || indexValue(a, "_ng_rollout_index") - indexValue(b, "_ng_rollout_index"));
  const groups = new Map<string, Group>();
  for (const row of rows) {
    const server = router.route(row, `${output}:${lines.get(row)}`);
    const agent = (row.agent_ref as Row | undefined)?.name;
    const label = typeof agent === "string" ? agent : server;
    const id = `${label}\u0000${server}`;
    if (!groups.has(id)) groups.set(id, { agent: label, server, rows: [] });
    groups.get(id)!.rows.push(row);
  }
  const entries: Row[] = [];
  for (const g of groups.values()) {
    const reply = await servers.get(g.server).post("/aggregate_metrics", undefined, {
      body: stringifyPython({ verify_responses: g.rows }),
      headers: { "content-type": "application/json" },
    });
    if (!reply.ok) {
      throw new GymError("E_SERVER", `Resources server '${g.server}' could not compute aggregate metrics for agent '${g.agent}' (${reply.status}): ${reply.text.slice(0, 300)}`, {
        hint: `The re-verified rollouts are saved in ${output}; compute metrics later with \`gym eval aggregate --config … --input-glob ${output}\`.`,
      });
    }
    entries.push({ agent_ref: { name: g.agent }, ...(parsePythonJson(reply.text) as Row) });
  }
  writeFileAtomic(target, stringifyPython(entries, { indent: 2 }));
  return entries;
}

function looksComplete(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Parity checks for judged servers (tests only): NeMo Gym's published rollouts posted back to /verify, each field compared (key order included). */
import type { Hono } from "hono";
import { post } from "../_common/testing.ts";

type Row = Record<string, any>;
const ROUTING = new Set(["_ng_task_index", "_ng_rollout_index", "agent_ref"]);

/**
 * What a comparison leaves out. `added`: keys the current app.py writes that the published rows predate.
 * `response` (the policy's, echoed) is compared with the `content: null` the current openai SDK's dump adds
 * to reasoning items taken out where the published row (dumped by an older SDK) has none.
 */
export interface CompareOptions {
  added?: readonly string[];
  /** Keys the rollouts file carries from the task row, not from /verify (set by `rescore`). */
  fromTask?: readonly string[];
}

/** The echoed response as an older SDK dumped it: reasoning items without a `content: null` the published one lacks. */
function asPublished(ours: Row, theirs: Row): Row {
  if (!Array.isArray(ours?.output) || !Array.isArray(theirs?.output)) return ours;
  const output = ours.output.map((item: Row, i: number) => {
    if (item?.type !== "reasoning" || item.content !== null || (theirs.output[i] && "content" in theirs.output[i])) return item;
    const { content: _dropped, ...rest } = item;
    return rest;
  });
  return { ...ours, output };
}

/** The keys where the re-scored row differs from the published one (routing keys and `added` keys aside); `[]` = exact. */
export function differingKeys(reply: Row, rollout: Row, options: CompareOptions = {}): string[] {
  const out: string[] = [];
  for (const key of new Set([...Object.keys(rollout), ...Object.keys(reply)])) {
    if (ROUTING.has(key) || (options.added?.includes(key) && !(key in rollout)) || (options.fromTask?.includes(key) && !(key in reply))) continue;
    const ours = key === "response" ? asPublished(reply[key], rollout[key]) : reply[key];
    if (JSON.stringify(ours) !== JSON.stringify(rollout[key])) out.push(key);
  }
  const shared = (row: Row, other: Row) => Object.keys(row).filter((key) => key in other && !ROUTING.has(key)).join(",");
  if (shared(reply, rollout) !== shared(rollout, reply)) out.push("(key order)");
  return out;
}

/**
 * The /verify body reverify builds for a published rollout: the task row's keys (those of `tasks[0]`), each from
 * the rollout where it carries it, else from its task row `tasks[_ng_task_index]` (rows whose /verify response drops
 * `question`, say), plus the stored response.
 */
export function verifyBodyOf(rollout: Row, tasks: Row[]): Row {
  const body: Row = {};
  const own = typeof rollout._ng_task_index === "number" ? tasks[rollout._ng_task_index] : undefined;
  for (const key of Object.keys(tasks[0] ?? {})) {
    if (ROUTING.has(key)) continue;
    if (key in rollout) body[key] = rollout[key];
    else if (own && key in own) body[key] = own[key];
  }
  body.response = rollout.response;
  return body;
}

/** Posts every published rollout (its body from `verifyBodyOf`) and returns, per row, the keys that differ. */
export async function rescore(app: Hono<any>, rollouts: Row[], tasks: Row[], options: CompareOptions = {}): Promise<string[][]> {
  const out: string[][] = [];
  for (const rollout of rollouts) {
    const body = verifyBodyOf(rollout, tasks);
    const reply = await post(app, "/verify", body);
    // Task keys /verify does not return (math_with_judge's `question`) come from the task row in the rollouts file.
    const fromTask = Object.keys(body).filter((key) => !(key in reply.body));
    out.push(reply.status === 200 ? differingKeys(reply.body, rollout, { ...options, fromTask }) : [`HTTP ${reply.status}: ${JSON.stringify(reply.body).slice(0, 200)}`]);
  }
  return out;
}

/** `/aggregate_metrics` of a resources server: NeMo Gym's baseline statistics plus the server's own hooks (metrics.md §1.4–1.7). */
import type { Handler } from "hono";
import { computeAggregateMetrics } from "../../metrics/baseline.ts";
import { stringifyPython } from "../../metrics/pyjson.ts";
import { HttpFailure, type GymEnv } from "../gym-app.ts";
import { parsePyBody } from "./json.ts";

type Row = Record<string, unknown>;

/** Rollouts grouped by task: ascending `_ng_task_index` (missing → 0), rollout order within a task. */
export type RolloutTasks = Row[][];

/** A server's metric hooks (NeMo Gym's `compute_metrics` / `get_key_metrics`). */
export interface MetricsHooks<Config> {
  /** Extra agent-level metrics (e.g. pass@k); a `per_task_metrics` list is merged into the group rows. */
  computeMetrics?(tasks: RolloutTasks, config: Config): Row;
  /** The headline metrics; the default is every `mean/…` key. */
  keyMetrics?(agentMetrics: Row): Row;
}

/** The route: `{"verify_responses": [...]}` → `{agent_metrics, key_metrics, group_level_metrics, …}`. */
export function aggregateRoute<Config>(hooks: MetricsHooks<Config>, config: Config): Handler<GymEnv> {
  return async (c) => {
    const text = await c.req.text();
    let body: unknown;
    try {
      body = parsePyBody(text);
    } catch (error) {
      throw new HttpFailure(422, [{ type: "json_invalid", loc: ["body", 0], msg: "JSON decode error", input: {}, ctx: { error: (error as Error).message } }]);
    }
    const rows = (body as Row | null)?.verify_responses;
    if (body === null || typeof body !== "object" || Array.isArray(body) || !("verify_responses" in body)) {
      throw new HttpFailure(422, [{ type: "missing", loc: ["body", "verify_responses"], msg: "Field required", input: body }]);
    }
    if (!Array.isArray(rows)) {
      throw new HttpFailure(422, [{ type: "list_type", loc: ["body", "verify_responses"], msg: "Input should be a valid list", input: rows }]);
    }
    const bad = rows.findIndex((r) => r === null || typeof r !== "object" || Array.isArray(r));
    if (bad >= 0) {
      throw new HttpFailure(422, [{ type: "dict_type", loc: ["body", "verify_responses", bad], msg: "Input should be a valid dictionary", input: rows[bad] }]);
    }
    const result = computeAggregateMetrics(rows as Row[], {
      hooks: {
        computeMetrics: hooks.computeMetrics ? (tasks) => hooks.computeMetrics!(tasks, config) : undefined,
        getKeyMetrics: hooks.keyMetrics,
      },
    });
    return c.body(stringifyPython(result), 200, { "content-type": "application/json" });
  };
}

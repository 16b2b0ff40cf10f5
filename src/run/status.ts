/** `<stem>_batch_status.json`: a run's progress on disk, written atomically at most every 5 s, read by `gym eval status`. */
import { processCounts, responseCacheEnabled } from "../servers/calls/cache/index.ts";
import { writeFileAtomic } from "../runtime/files.ts";
import type { Outcome } from "../outputs/store.ts";
import { modelCallsStatus, type ModelCallsStatus } from "./model-calls.ts";

export type AggregationStatus = "deferred" | "pending" | "error" | "complete";

export interface StemStatus {
  schema_version: "1";
  updated_at: string;
  tracking: "enabled";
  expected_rollout_count: number;
  completed_rollout_count: number;
  remaining_rollout_count: number;
  failures_by_class: Record<string, number>;
  failures_by_kind: Record<string, number>;
  model_final_by_kind: Record<string, number>;
  aggregation_status: AggregationStatus;
  /** With the response cache on: this invocation's model calls served from it (hits) and sent upstream (misses). */
  response_cache?: { hits: number; misses: number };
  /** gym's addition: model calls, 429s, retries and each endpoint's adaptive limit with its changes. */
  model_calls?: ModelCallsStatus;
}

/** Keeps the counters from the Store's newest-attempt view and writes them, throttled. */
export class StatusWriter {
  private lastWrite = 0;
  private dirty = false;
  aggregation: AggregationStatus;

  constructor(
    private readonly path: string,
    private readonly expected: string[],
    private readonly store: Map<string, Outcome>,
    disableAggregation: boolean,
    private readonly everyMs = 5000,
  ) {
    this.aggregation = disableAggregation ? "deferred" : "pending";
  }

  /** Completed rollouts and failures by class among the expected ones, kept as outcomes change (no pass per write). */
  private counts: { completed: number; byClass: Record<string, number> } | undefined;

  /** One expected rollout's outcome changed from `before` to `after` (the store already holds `after`). */
  changed(before: Outcome | undefined, after: Outcome): void {
    if (!this.counts) return; // counted from the store at the first snapshot
    this.count(before, -1);
    this.count(after, 1);
  }

  private count(o: Outcome | undefined, by: number): void {
    const counts = this.counts!;
    if (o?.kind === "success") counts.completed += by;
    else if (o?.kind === "failure") counts.byClass[o.failureClass] = (counts.byClass[o.failureClass] ?? 0) + by;
    else if (o?.kind === "interrupted") counts.byClass.kill_shaped = (counts.byClass.kill_shaped ?? 0) + by;
  }

  snapshot(): StemStatus {
    if (!this.counts) {
      this.counts = { completed: 0, byClass: {} };
      for (const id of this.expected) this.count(this.store.get(id), 1);
    }
    const completed = this.counts.completed;
    const byClass = Object.fromEntries(Object.entries(this.counts.byClass).filter(([, n]) => n > 0));
    return {
      schema_version: "1",
      updated_at: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
      tracking: "enabled",
      expected_rollout_count: this.expected.length,
      completed_rollout_count: completed,
      remaining_rollout_count: Math.max(this.expected.length - completed, 0),
      failures_by_class: byClass,
      failures_by_kind: { ...byClass },
      model_final_by_kind: {},
      aggregation_status: this.aggregation,
      ...(responseCacheEnabled() ? { response_cache: { ...processCounts } } : {}),
      ...((calls) => (calls ? { model_calls: calls } : {}))(modelCallsStatus()),
    };
  }

  /** Notes a change; writes if the last write is older than the throttle (or `force`). */
  touch(force = false): void {
    this.dirty = true;
    const now = Date.now();
    if (!force && now - this.lastWrite < this.everyMs) return;
    this.write();
  }

  write(): void {
    this.lastWrite = Date.now();
    this.dirty = false;
    writeFileAtomic(this.path, `${JSON.stringify(sortKeys(this.snapshot()), null, 2)}\n`);
  }

  flush(): void {
    if (this.dirty) this.write();
  }
}

function sortKeys<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) as T;
}

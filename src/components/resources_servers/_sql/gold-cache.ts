/**
 * Gold results, kept: a task's gold SQL gives the same rows for each of its rollouts (num_repeats, often 16) on a
 * database opened read-only, so it runs once per (database, SQL) while cached. Failures are not kept (a gold
 * query that timed out runs again, as NeMo Gym runs it every time). Bounded by entries and by rows.
 */
import type { SqlResult, SqlRow } from "./execute.ts";

export class GoldCache {
  private readonly entries = new Map<string, SqlRow[]>();
  private rows = 0;
  private readonly inFlight = new Map<string, Promise<SqlResult>>();

  constructor(
    private readonly maxEntries = 1024,
    private readonly maxRows = 2_000_000,
  ) {}

  /** The cached rows, or `run()`'s result (kept when it succeeded); concurrent callers of one key share one run. */
  async get(database: string, sql: string, run: () => Promise<SqlResult>): Promise<SqlResult> {
    const key = `${database}\u0000${sql}`;
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key); // most recently used last
      this.entries.set(key, hit);
      return { ok: true, rows: hit };
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const running = run().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, running);
    const result = await running;
    if (result.ok && result.rows.length <= this.maxRows / 4) this.keep(key, result.rows);
    return result;
  }

  private keep(key: string, rows: SqlRow[]): void {
    this.entries.set(key, rows);
    this.rows += rows.length;
    for (const [oldKey, oldRows] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.rows <= this.maxRows) break;
      this.entries.delete(oldKey);
      this.rows -= oldRows.length;
    }
  }
}

/** Cost accounting over rows: tokens by role and model, priced by a PriceTable; a model with no price shows tokens only. */
import * as fs from "node:fs";
import { readRows } from "../../jsonl/read.ts";
import { runPaths } from "../../outputs/paths.ts";
import { priceFor, type Price, type PriceTable } from "./prices.ts";
import { usageRecords, type Tokens, type UsageRecord } from "./usage.ts";

export { BUILTIN_PRICES, BUILTIN_PRICES_SOURCE, loadPricesFile, priceFor, priceTable, type Price, type PriceTable } from "./prices.ts";
export { tokensOf, usageRecords, type Tokens, type UsageRecord } from "./usage.ts";

/** `gym eval status --json`'s `cost`, the run summary's and `<stem>_cost.json`'s totals. */
export interface RunCost {
  /** USD of the priced policy calls; null when the policy used tokens but none of its models has a price. */
  policy_usd: number | null;
  judge_usd: number | null;
  total_usd: number | null;
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  reasoning_tokens: number;
  priced_models: string[];
  unpriced_models: string[];
  /** Rows that carried usage (each rollout or failure once). */
  rows_with_usage: number;
  /** Rows whose every model call the response cache answered (`_ng_response_cache.misses == 0`): nothing spent, not counted. */
  rows_from_cache: number;
  policy: Tokens;
  judge: Tokens;
  by_model: Record<string, Tokens & { role: string; usd: number | null }>;
}

const zero = (): Tokens => ({ input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_tokens: 0 });

function addTokens(into: Tokens, t: Tokens): void {
  into.input_tokens += t.input_tokens;
  into.cached_input_tokens += t.cached_input_tokens;
  into.output_tokens += t.output_tokens;
  into.reasoning_tokens += t.reasoning_tokens;
}

/** USD of one usage record at a price (the tier by the record's prompt size). */
export function usdOf(t: Tokens, price: Price): number {
  let p: Omit<Price, "tiers"> = price;
  for (const tier of price.tiers ?? []) if (t.input_tokens > tier.above_input_tokens) p = tier;
  const uncached = t.input_tokens - t.cached_input_tokens;
  const visible = t.output_tokens - t.reasoning_tokens;
  return (uncached * p.input + t.cached_input_tokens * (p.cached_input ?? p.input) + visible * p.output + t.reasoning_tokens * (p.reasoning ?? p.output)) / 1e6;
}

/** Total tokens of a record, as `--max-tokens` counts them (input + output). */
export const totalTokens = (t: Tokens) => t.input_tokens + t.output_tokens;

/** Sums rows' usage as they come; `add` returns what the row cost, for budgets and projections. */
export class CostTally {
  private readonly byKey = new Map<string, Tokens & { role: "policy" | "judge"; model: string; usd: number | null }>();
  private usd = { policy: 0, judge: 0 };
  private rows = 0;
  private fromCache = 0;

  constructor(readonly prices: PriceTable) {}

  /** Adds a row's usage; returns its USD (null when a model of it has no price) and tokens. */
  add(row: Record<string, unknown>): { usd: number | null; tokens: number; unpriced: string[] } {
    const cache = row._ng_response_cache as { hits?: unknown; misses?: unknown } | undefined;
    if (cache && typeof cache === "object" && cache.misses === 0 && typeof cache.hits === "number" && cache.hits > 0) {
      this.fromCache++;
      return { usd: 0, tokens: 0, unpriced: [] };
    }
    return this.addRecords(usageRecords(row));
  }

  addRecords(records: UsageRecord[]): { usd: number | null; tokens: number; unpriced: string[] } {
    let usd: number | null = 0;
    let tokens = 0;
    const unpriced: string[] = [];
    if (records.length > 0) this.rows++;
    for (const r of records) {
      const key = `${r.role}\u0000${r.model}`;
      let entry = this.byKey.get(key);
      const price = priceFor(r.model, this.prices);
      if (!entry) this.byKey.set(key, (entry = { role: r.role, model: r.model, ...zero(), usd: price ? 0 : null }));
      addTokens(entry, r);
      tokens += totalTokens(r);
      if (price) {
        const cost = usdOf(r, price);
        entry.usd! += cost;
        this.usd[r.role] += cost;
        if (usd !== null) usd += cost;
      } else {
        usd = null;
        unpriced.push(r.model);
      }
    }
    return { usd, tokens, unpriced };
  }

  /** USD of the priced calls so far (unpriced ones count nothing). */
  get spentUsd(): number {
    return this.usd.policy + this.usd.judge;
  }

  get spentTokens(): number {
    let n = 0;
    for (const e of this.byKey.values()) n += totalTokens(e);
    return n;
  }

  /** Whether any call so far was priced. */
  get priced(): boolean {
    for (const e of this.byKey.values()) if (e.usd !== null) return true;
    return false;
  }

  get rowsWithUsage(): number {
    return this.rows;
  }

  summary(): RunCost {
    const policy = zero();
    const judge = zero();
    const priced = new Set<string>();
    const unpriced = new Set<string>();
    const roleUsd: Record<"policy" | "judge", number | null> = { policy: null, judge: null };
    const byModel: RunCost["by_model"] = {};
    for (const e of [...this.byKey.values()].sort((a, b) => a.role.localeCompare(b.role) || a.model.localeCompare(b.model))) {
      addTokens(e.role === "policy" ? policy : judge, e);
      (e.usd === null ? unpriced : priced).add(e.model);
      if (e.usd !== null) roleUsd[e.role] = (roleUsd[e.role] ?? 0) + e.usd;
      const { role, model, usd, ...tokens } = e;
      byModel[byModel[model] ? `${model} (${role})` : model] = { role, ...tokens, usd: usd === null ? null : round(usd) };
    }
    const total = roleUsd.policy === null && roleUsd.judge === null ? null : (roleUsd.policy ?? 0) + (roleUsd.judge ?? 0);
    const all = zero();
    addTokens(all, policy);
    addTokens(all, judge);
    return {
      policy_usd: roleUsd.policy === null ? null : round(roleUsd.policy),
      judge_usd: roleUsd.judge === null ? null : round(roleUsd.judge),
      total_usd: total === null ? null : round(total),
      input_tokens: all.input_tokens,
      output_tokens: all.output_tokens,
      cached_input_tokens: all.cached_input_tokens,
      reasoning_tokens: all.reasoning_tokens,
      priced_models: [...priced].sort(),
      unpriced_models: [...unpriced].filter((m) => !priced.has(m)).sort(),
      rows_with_usage: this.rows,
      rows_from_cache: this.fromCache,
      policy,
      judge,
      by_model: byModel,
    };
  }
}

/** USD rounded to a millionth of a cent's worth of digits (reports, not sums: the tally keeps full precision). */
const round = (usd: number) => Math.round(usd * 1e10) / 1e10;

/** `<stem>_cost.json` beside a rollouts file: the run's usage and cost, written whole at the end of a run. */
export function costFilePath(rollouts: string): string {
  return runPaths(rollouts).cost;
}

/** Tallies every row of these files (missing files are skipped: a run with no failure has no failures file). */
export async function tallyFiles(files: string[], prices: PriceTable, tally = new CostTally(prices)): Promise<CostTally> {
  for (const file of files) {
    if (file !== "-" && !fs.existsSync(file)) continue;
    for await (const row of readRows(file, { allowTruncatedTail: true, lenient: true })) tally.add(row);
  }
  return tally;
}

/** "$0.0123 (policy $0.0100, judge $0.0023); 12,345 tokens in (2,000 cached), 3,456 out (1,000 reasoning)". */
export function costLine(cost: RunCost): string {
  const usd = (v: number | null) => (v === null ? "no price" : formatUsd(v));
  const money = cost.total_usd === null ? "no price for " + cost.unpriced_models.join(", ") : `${formatUsd(cost.total_usd)}${cost.judge_usd !== null || cost.judge.input_tokens > 0 ? ` (policy ${usd(cost.policy_usd)}, judge ${usd(cost.judge_usd)})` : ""}`;
  const n = (v: number) => v.toLocaleString("en-US");
  const unpriced = cost.total_usd !== null && cost.unpriced_models.length ? `; tokens only for ${cost.unpriced_models.join(", ")} (no price: add it to a --prices file)` : "";
  return `${money}; ${n(cost.input_tokens)} tokens in (${n(cost.cached_input_tokens)} cached), ${n(cost.output_tokens)} out (${n(cost.reasoning_tokens)} reasoning)${unpriced}`;
}

/** Dollars to 4 significant decimals below a dollar, cents above. */
export function formatUsd(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toPrecision(3).replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "")}`;
}

/** A run's budget (`--max-cost USD`, `--max-tokens N`): dispatch stops when the next rollout could pass it; in-flight ones finish. */
import type { DispatchRequest } from "../stages/collect.ts";
import { CostTally, formatUsd, priceFor, priceTable, totalTokens, usdOf, type PriceTable } from "../stages/cost/index.ts";
import { modelCallUsage, usageSince, type ModelUsage } from "../servers/calls/accounting.ts";
import { GymError } from "../errors.ts";

/** What one row cost, as `CostTally.add` tells it. */
type RowSpend = ReturnType<CostTally["add"]>;

export interface BudgetLimits {
  maxCostUsd?: number;
  maxTokens?: number;
}

/**
 * Holds the run's spend (rows of earlier invocations included: a budget is for the whole run, so `--resume`
 * needs a larger one to go on) and decides, before each dispatch, whether the next rollout could pass a limit.
 * A rollout is expected to cost as much as the most expensive one seen; before any is seen one runs alone.
 */
export class Budget {
  private inFlight = 0;
  private maxUsd = 0;
  private maxTokens = 0;
  private seen = 0;
  private finishedHere = 0;
  private wake: (() => void) | undefined;
  /** Why dispatch stopped; null while it goes on. */
  stoppedBy: string | null = null;
  // This process's model-call counters when dispatch began (set by `gate`).
  private callsAtStart = modelCallUsage();
  /** The rows of earlier invocations (seeded before dispatch). */
  private readonly earlier: CostTally;
  /**
   * This invocation's rows: the caller's own tally of them when it passes one (`record` adds each row to it, so the
   * caller does not add it again: each row's usage is read once), else the budget's.
   */
  readonly here: CostTally;

  constructor(
    readonly limits: BudgetLimits,
    readonly prices: PriceTable,
    here?: CostTally,
  ) {
    this.earlier = new CostTally(prices);
    this.here = here ?? new CostTally(prices);
  }

  /** The whole run's spend by its rows: earlier invocations' and this one's. */
  get tally(): { spentUsd: number; spentTokens: number } {
    return { spentUsd: this.earlier.spentUsd + this.here.spentUsd, spentTokens: this.earlier.spentTokens + this.here.spentTokens };
  }

  /**
   * Spent so far: the rows' usage, or what this process's model calls report when that is more (calls of rollouts
   * still in flight or failed without a row, judges that keep no usage in their rows).
   */
  spent(): { usd: number; tokens: number; callsUsd: number; callsTokens: number } {
    const calls = callsSpent(usageSince(this.callsAtStart), this.prices);
    const rows = this.tally;
    return { usd: Math.max(rows.spentUsd, this.earlier.spentUsd + calls.usd), tokens: Math.max(rows.spentTokens, this.earlier.spentTokens + calls.tokens), callsUsd: calls.usd, callsTokens: calls.tokens };
  }

  /** A row an earlier invocation saved: it counts against the budget and tells what a rollout costs. */
  seed(row: Record<string, unknown>): void {
    this.count(this.earlier.add(row));
  }

  /** Refuses, before dispatch, a cost budget over models without a price. */
  static checkPriced(limits: BudgetLimits, models: string[], prices: PriceTable): void {
    if (limits.maxCostUsd === undefined) return;
    const unpriced = models.filter((m) => !priceFor(m, prices));
    if (unpriced.length === 0) return;
    throw new GymError("E_CONFIG", `--max-cost needs a price for every model, and ${unpriced.map((m) => `'${m}'`).join(", ")} has none.`, {
      hint: `Add it to a prices file (YAML, USD per million tokens):\n  ${unpriced[0]}: {input: 0.5, output: 1.5}\nand pass --prices FILE (or +prices=FILE); or budget tokens with --max-tokens N.`,
    });
  }

  /** A finished row (success or failure) of this invocation, added to `here`. */
  record(row: Record<string, unknown>): void {
    this.count(this.here.add(row));
    this.finished();
  }

  private count(spent: RowSpend): void {
    if (spent.usd !== null) this.maxUsd = Math.max(this.maxUsd, spent.usd);
    this.maxTokens = Math.max(this.maxTokens, spent.tokens);
    if (spent.unpriced.length && this.limits.maxCostUsd !== undefined && !this.stoppedBy) this.stoppedBy = `model '${spent.unpriced[0]}' in the rollouts has no price, so the cost budget cannot be kept`;
    // Only a row with usage says what a rollout costs (an agent error before any model call says nothing).
    if (spent.tokens > 0 || (spent.usd ?? 0) > 0) this.seen++;
  }

  /** A dispatched request ended (with or without a row). */
  finished(): void {
    if (this.inFlight > 0) this.inFlight--;
    this.finishedHere++;
    this.wake?.();
  }

  /** "go", "wait" (the cost of a rollout is not known yet and one is in flight) or "stop". */
  decide(): "go" | "wait" | "stop" {
    if (this.stoppedBy) return "stop";
    const { maxCostUsd, maxTokens } = this.limits;
    const spent = this.spent();
    if (this.seen === 0 && spent.callsTokens === 0) {
      // Nothing has reported usage yet: one rollout at a time until one does; a few without any mean it never will.
      if (this.finishedHere >= 3 && this.inFlight === 0) this.stoppedBy = `${this.finishedHere} rollouts finished and none reported token usage, so the budget cannot be kept`;
      return this.stoppedBy ? "stop" : this.inFlight === 0 ? "go" : "wait";
    }
    const next = this.inFlight + 1;
    // A rollout costs up to the dearest row seen, or what this process's calls averaged per finished rollout
    // when that is more (judge calls that rows do not record).
    const perUsd = Math.max(this.maxUsd, this.finishedHere ? spent.callsUsd / this.finishedHere : 0);
    const perTokens = Math.max(this.maxTokens, this.finishedHere ? spent.callsTokens / this.finishedHere : 0);
    if (maxCostUsd !== undefined && spent.usd + next * perUsd > maxCostUsd) {
      this.stoppedBy = `the cost budget (--max-cost ${maxCostUsd}): ${formatUsd(spent.usd)} spent${this.inFlight ? ` and ${this.inFlight} in flight` : ""}, up to ${formatUsd(perUsd)} a rollout`;
    } else if (maxTokens !== undefined && spent.tokens + next * perTokens > maxTokens) {
      this.stoppedBy = `the token budget (--max-tokens ${maxTokens}): ${spent.tokens} tokens spent${this.inFlight ? ` and ${this.inFlight} in flight` : ""}, up to ${Math.ceil(perTokens)} a rollout`;
    }
    return this.stoppedBy ? "stop" : "go";
  }

  /** The plan, cut where the budget says stop (a stopped plan yields no more; the rest stays for --resume). */
  async *gate(plan: Iterable<DispatchRequest>, signal: AbortSignal): AsyncGenerator<DispatchRequest> {
    this.callsAtStart = modelCallUsage();
    const aborted = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
    for (const request of plan) {
      for (;;) {
        if (signal.aborted) return;
        const decision = this.decide();
        if (decision === "stop") return;
        if (decision === "go") break;
        await Promise.race([new Promise<void>((resolve) => (this.wake = resolve)), aborted]);
        this.wake = undefined;
      }
      this.inFlight++;
      yield request;
    }
  }
}

/**
 * The run's cost keys from the resolved config — `prices` (a prices file), `max_cost_usd`, `max_tokens` (set by
 * `--prices`, `--max-cost`, `--max-tokens` or `+key=value`) — and the models its model servers call.
 */
export function costSettings(resolved: Record<string, unknown>, instances: { serverType: string; block: Record<string, unknown> }[]): { prices: PriceTable; budget: BudgetLimits; models: string[] } {
  const number = (key: string, flag: string, whole: boolean) => {
    const v = resolved[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "number" || !Number.isFinite(v) || v <= 0 || (whole && !Number.isInteger(v))) {
      throw new GymError("E_BAD_FLAG_VALUE", `${flag} (${key}) expects ${whole ? "a whole number" : "a number"} > 0, got ${JSON.stringify(v)}.`, { hint: `For example ${flag} ${whole ? "2000000" : "5"}.` });
    }
    return v;
  };
  const file = resolved.prices;
  if (file !== undefined && file !== null && typeof file !== "string") throw new GymError("E_BAD_FLAG_VALUE", `--prices (prices) expects a file path, got ${JSON.stringify(file)}.`, { hint: "For example --prices prices.yaml." });
  const models = instances
    .filter((i) => i.serverType === "responses_api_models")
    .map((i) => i.block.openai_model ?? i.block.model)
    .filter((m): m is string => typeof m === "string" && m !== "");
  return { prices: priceTable(file ?? undefined), budget: { maxCostUsd: number("max_cost_usd", "--max-cost", false), maxTokens: number("max_tokens", "--max-tokens", true) }, models: [...new Set(models)] };
}

/** USD (priced models only) and tokens of model calls counted by the call path. */
export function callsSpent(usage: Map<string, ModelUsage>, prices: PriceTable): { usd: number; tokens: number; calls: number; unpriced: string[] } {
  let usd = 0;
  let tokens = 0;
  let calls = 0;
  const unpriced: string[] = [];
  for (const [model, u] of usage) {
    const price = priceFor(model, prices);
    // Summed calls are priced as one record: a tier by prompt size would see the sum, so tiers use the mean call.
    if (price) usd += price.tiers?.length ? usdOf(scale(u, 1 / u.calls), price) * u.calls : usdOf(u, price);
    else unpriced.push(model);
    tokens += totalTokens(u);
    calls += u.calls;
  }
  return { usd, tokens, calls, unpriced };
}

function scale(u: ModelUsage, k: number): ModelUsage {
  return { calls: 1, input_tokens: u.input_tokens * k, cached_input_tokens: u.cached_input_tokens * k, output_tokens: u.output_tokens * k, reasoning_tokens: u.reasoning_tokens * k };
}

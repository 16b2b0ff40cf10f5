/**
 * The adaptive concurrency limit of one model endpoint (base URL and API key): slow start, then AIMD — grow by
 * one slot per window of calls that succeed while the limit is in use, cut ×0.8 on a 429 episode, freeze growth
 * for the cooldown the provider asks for — and pacing by the `x-ratelimit-*` headers the provider sends.
 */
import { rateLimitWindows } from "./headers.ts";

/** A change of the limit and why (kept for the run's status file and progress line). */
export interface LimitChange {
  at: string;
  endpoint: string;
  from: number;
  to: number;
  reason: string;
}

/** What one attempt found, as the limiter needs it. */
export type AttemptOutcome =
  | { kind: "ok"; headers?: Headers }
  | { kind: "rate_limited"; headers?: Headers; retryAfterMs?: number }
  /** 5xx, timeouts, connection failures, permanent 4xx: say nothing about the rate limit. */
  | { kind: "neutral"; headers?: Headers };

/** A granted slot: which cut epoch it was sent in, and whether the limit was in use when it was. */
export interface Ticket {
  readonly epoch: number;
  readonly seq: number;
  readonly startedAt: number;
  readonly saturated: boolean;
}

export interface LimiterStats {
  calls: number;
  rateLimited: number;
  retries: number;
  /** Call-milliseconds spent in backoff after a 429 (summed over calls; the retry layer adds them). */
  backoffMs: number;
  /** Milliseconds the endpoint sent nothing because the provider's window was spent. */
  pausedMs: number;
  /** Sum of attempt durations (ms): divided by the wall time it gives the effective concurrency. */
  busyMs: number;
  firstStartAt?: number;
  lastEndAt?: number;
}

const INITIAL = 4;
const CUT = 0.9;
/** Below this share of `x-ratelimit-limit-tokens` left, new calls wait for the token window to refill. */
const TOKENS_LOW = 0.05;

export class AdaptiveLimiter {
  readonly endpoint: string;
  ceiling: number;
  inFlight = 0;
  readonly stats: LimiterStats = { calls: 0, rateLimited: 0, retries: 0, backoffMs: 0, pausedMs: 0, busyMs: 0 };
  /** The latest changes of the limit (at most 500), oldest first; `changesTotal` counts all. */
  readonly changes: LimitChange[] = [];
  changesTotal = 0;
  private value: number;
  private slowStart = true;
  private epoch = 0;
  private dispatched = 0;
  private frozenUntil = 0;
  private pausedUntil = 0;
  private pauseTimer: ReturnType<typeof setTimeout> | undefined;
  private budget: { remaining: number; until: number; seq: number } | undefined;
  // Two FIFO queues, O(1) each: retried calls go before fresh ones.
  private readonly retryQueue: (() => void)[] = [];
  private readonly freshQueue: (() => void)[] = [];
  private retryHead = 0;
  private freshHead = 0;
  private readonly onChange: ((change: LimitChange) => void) | undefined;
  private readonly now: () => number;

  constructor(endpoint: string, ceiling: number, options: { onChange?: (change: LimitChange) => void; now?: () => number; initial?: number } = {}) {
    this.endpoint = endpoint;
    this.ceiling = Math.max(1, ceiling);
    this.value = Math.min(this.ceiling, options.initial ?? INITIAL);
    this.onChange = options.onChange;
    this.now = options.now ?? (() => performance.now());
  }

  /** The current limit: calls let in at once. */
  get limit(): number {
    return Math.max(1, Math.floor(this.value));
  }

  /** Calls waiting for a slot. */
  get waiting(): number {
    return this.retryQueue.length - this.retryHead + this.freshQueue.length - this.freshHead;
  }

  /** Waits for a slot; `retry` puts the call before calls that have not been sent yet. */
  acquire(retry = false): Promise<Ticket> {
    return new Promise((resolve) => {
      (retry ? this.retryQueue : this.freshQueue).push(() => resolve(this.grant()));
      this.pump();
    });
  }

  /** Gives the slot back with what the attempt found, and adapts the limit. */
  release(ticket: Ticket, outcome: AttemptOutcome): void {
    const now = this.now();
    this.inFlight--;
    this.stats.busyMs += now - ticket.startedAt;
    this.stats.lastEndAt = now;
    if (outcome.headers) this.readWindows(outcome.headers, ticket, now);
    if (outcome.kind === "ok") this.grow(ticket, now);
    else if (outcome.kind === "rate_limited") this.cut(ticket, now, outcome.retryAfterMs);
    this.pump();
  }

  /** Another user of the endpoint with a higher `--concurrency`: the higher ceiling holds. */
  raiseCeiling(ceiling: number): void {
    this.ceiling = Math.max(this.ceiling, ceiling);
  }

  private grant(): Ticket {
    this.inFlight++;
    this.stats.calls++;
    const now = this.now();
    this.stats.firstStartAt ??= now;
    if (this.budget) this.budget.remaining--;
    return { epoch: this.epoch, seq: ++this.dispatched, startedAt: now, saturated: this.inFlight >= this.limit };
  }

  private grow(ticket: Ticket, now: number): void {
    if (!(ticket.saturated || this.waiting > 0) || now < this.frozenUntil || this.value >= this.ceiling) return;
    const before = this.limit;
    this.value = Math.min(this.ceiling, this.value + (this.slowStart ? 1 : 1 / this.value));
    if (this.limit !== before) this.record(before, this.slowStart ? "slow start: calls succeed at the limit" : "calls succeed at the limit");
  }

  private cut(ticket: Ticket, now: number, retryAfterMs: number | undefined): void {
    this.stats.rateLimited++;
    const wait = retryAfterMs ?? 0;
    this.frozenUntil = Math.max(this.frozenUntil, now + wait);
    // Only a call sent since the last cut is news: the others were sent under the old, too high, limit.
    if (ticket.epoch !== this.epoch) return;
    this.epoch++;
    const before = this.limit;
    const wasFloor = this.value <= 1;
    this.slowStart = false;
    this.value = Math.max(1, this.value * CUT);
    // At one call in flight and still refused, nothing is sent until the provider's wait is over.
    if (wasFloor && wait > 0) this.pauseUntil(now + wait);
    this.record(before, `429${retryAfterMs !== undefined ? ` (retry after ${Math.round(wait)} ms)` : ""}`);
  }

  private readWindows(headers: Headers, ticket: Ticket, now: number): void {
    const { requests, tokens } = rateLimitWindows(headers);
    if (requests && requests.resetMs !== undefined && (!this.budget || ticket.seq > this.budget.seq)) {
      // The answer counted the calls up to this one: those sent after it spend the same window.
      this.budget = { remaining: requests.remaining - (this.dispatched - ticket.seq), until: now + requests.resetMs, seq: ticket.seq };
    }
    if (tokens && tokens.limit && tokens.resetMs !== undefined && tokens.remaining < tokens.limit * TOKENS_LOW && now + tokens.resetMs > this.pausedUntil) {
      this.pauseUntil(now + tokens.resetMs, "x-ratelimit-remaining-tokens low");
    }
  }

  private pauseUntil(until: number, reason?: string): void {
    const now = this.now();
    if (until <= this.pausedUntil) return;
    this.stats.pausedMs += until - Math.max(now, this.pausedUntil);
    this.pausedUntil = until;
    if (reason) this.record(this.limit, `${reason}: paused ${Math.round(until - now)} ms`);
  }

  /** Lets queued calls in while there is room, the provider's window is not spent and no pause is on. */
  private pump(): void {
    for (;;) {
      const now = this.now();
      if (this.budget && now >= this.budget.until) this.budget = undefined;
      const spent = () => this.budget !== undefined && this.budget.remaining <= 0;
      if (spent() && this.waiting > 0) this.pauseUntil(this.budget!.until, "x-ratelimit-remaining-requests spent");
      if (now < this.pausedUntil) {
        if (!this.pauseTimer && this.waiting > 0) {
          this.pauseTimer = setTimeout(() => {
            this.pauseTimer = undefined;
            this.pump();
          }, this.pausedUntil - now);
        }
        return;
      }
      while (this.inFlight < this.limit && this.waiting > 0 && !spent()) {
        (this.retryHead < this.retryQueue.length ? this.shift(this.retryQueue, "retry") : this.shift(this.freshQueue, "fresh"))();
      }
      if (!(spent() && this.waiting > 0)) return;
    }
  }

  private shift(queue: (() => void)[], which: "retry" | "fresh"): () => void {
    const head = which === "retry" ? this.retryHead++ : this.freshHead++;
    const item = queue[head]!;
    // Compact now and then so the arrays do not grow with every call ever queued.
    if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head + 1);
      if (which === "retry") this.retryHead = 0;
      else this.freshHead = 0;
    }
    return item;
  }

  private record(from: number, reason: string): void {
    // Growth one slot at a time is one change: the last entry is extended while it goes on.
    const last = this.changes.at(-1);
    if (last && last.reason === reason && reason.includes("succeed") && last.to === from) {
      last.to = this.limit;
      last.at = new Date().toISOString();
      return;
    }
    this.changesTotal++;
    const change = { at: new Date().toISOString(), endpoint: this.endpoint, from, to: this.limit, reason };
    this.changes.push(change);
    if (this.changes.length > 500) this.changes.splice(0, 100);
    this.onChange?.(change);
  }
}

/** runCollection: the durable `gym eval run` — lock, inventory, dispatch, route every outcome to disk, score, exit code. */
import * as fs from "node:fs";
import { readJsonl, type Row } from "../jsonl/read.ts";
import { CoalescingAppender, JsonlAppender, toJsonLine } from "../jsonl/write.ts";
import type { ServerDirectory } from "../servers/client.ts";
import { collect, type CollectEvent, type DispatchRequest } from "../stages/collect.ts";
import { type Completion, decideCompletion } from "./exit-code.ts";
import { LatencyTracker } from "../metrics/latency.ts";
import { acquireRunLock } from "../outputs/lock.ts";
import { AttemptJournal, foldReservations, readReservations, writeManifest } from "./manifest.ts";
import { identityKey, type RunPaths } from "../outputs/paths.ts";
import { prepareRun } from "./prepare.ts";
import { Progress } from "./progress.ts";
import { rolloutLine } from "./rollout-line.ts";
import { scoreRun, writeAggregateMetrics, WrittenRollouts } from "./score.ts";
import type { RunSettings } from "./settings.ts";
import { StatusWriter } from "./status.ts";
import { Budget, callsSpent, type BudgetLimits } from "./budget.ts";
import { modelCallUsage, usageSince } from "../servers/calls/accounting.ts";
import { CostTally, costFilePath, formatUsd, priceTable, type PriceTable, type RunCost } from "../stages/cost/index.ts";
import { LiveHealthCheck } from "../stages/health-check/live.ts";
import type { QualitySummary } from "../stages/health-check/tally.ts";
import { RunCostTally } from "./run-cost.ts";
import { MemoryBound, traceMemory } from "../runtime/memory.ts";
import { OutcomeIndexWriter } from "../outputs/outcome-index.ts";
import { collectGarbage } from "../runtime/gc.ts";
import { writeJsonAtomic } from "../jsonl/write.ts";
import { EXIT } from "../errors.ts";
import { eligibility, loadStore, maxRolloutAttempts, success, type Outcome } from "../outputs/store.ts";
import type { Materialization } from "../stages/materialize.ts";

export interface CollectionOptions {
  paths: RunPaths;
  inputPath: string;
  materialized: Materialization;
  settings: RunSettings;
  agents: ServerDirectory;
  /** Also stream successful rows here (`--output -`). */
  stdoutRows?: JsonlAppender;
  concurrency: number;
  resume: boolean;
  allowUnsafeResume?: boolean;
  routeFailuresToSidecar?: boolean;
  requireComplete?: boolean;
  disableAggregation?: boolean;
  countFailureClassesAsZero?: string[];
  countMissingRolloutsAsZero?: boolean;
  recordOmittedRollouts?: boolean;
  dispatchBudgetS?: number;
  drainMarginS?: number;
  dispatchLongestFirst?: boolean;
  retryTerminalTimeouts?: boolean;
  timeoutMs?: number;
  /** Aborted on Ctrl-C / SIGTERM: stop admitting, let in-flight rollouts finish, save, exit. */
  signal?: AbortSignal;
  resolvedConfigYaml?: string;
  /** Prices for the cost accounting (built-in table unless given). */
  prices?: PriceTable;
  /** `--max-cost` / `--max-tokens`: stop dispatching before the next rollout could pass them (exit 77). */
  budget?: BudgetLimits;
  /** The models the run's servers call, checked for a price before a cost budget dispatches anything. */
  models?: string[];
  log: { info(m: string): void; warn(m: string): void };
}

export interface CollectionResult {
  exitCode: number;
  expected: number;
  succeeded: number;
  failuresByClass: Record<string, number>;
  notStarted: number;
  scored: number;
  counted: number;
  imputed: number;
  metrics: Row[] | null;
  latency: string;
  aborted: string | null;
  /** Why the run is (in)complete when completion was required, and whether --resume is the next step. */
  completion?: Completion;
  /** The whole run's usage and cost (every rollout and failure row on disk). */
  cost: RunCost | null;
  /** Why dispatch stopped at the budget (exit 77), or null. */
  budgetStop: string | null;
  /** The model calls this process made during the run (in-process model servers: policy and judges). */
  modelCalls: { calls: number; usd: number; tokens: number; unpriced: string[] };
  /** The rollouts file's health report, made as rows were written (undefined: none made, e.g. with --output -). */
  health?: QualitySummary | { error: string };
}

export async function runCollection(options: CollectionOptions): Promise<CollectionResult> {
  const { paths, log } = options;
  const lock = acquireRunLock(paths.lock, paths.rollouts);
  try {
    return await collectLocked(options);
  } finally {
    lock.release();
  }
}

async function collectLocked(options: CollectionOptions): Promise<CollectionResult> {
  const { paths, log } = options;
  const inventory = await prepareRun({ ...options, allowUnsafeResume: !!options.allowUnsafeResume, warn: log.warn, info: log.info });
  if (options.resolvedConfigYaml !== undefined) fs.writeFileSync(paths.resolvedConfig, options.resolvedConfigYaml);
  const maxAttempts = maxRolloutAttempts(log.warn);
  const reserved = await readReservations(inventory.manifest, paths.attempts);
  // The whole run's cost is tallied as rows are written (rollouts, then failures: the files' order), and so is the
  // health check (none with --output -): neither reads the files again at the end. The rows already on disk (a
  // resume) reach both, and a budget, from the store's one pass over them.
  const prices = options.prices ?? priceTable();
  const tally = new CostTally(prices);
  let budget: Budget | undefined;
  if (options.budget && (options.budget.maxCostUsd !== undefined || options.budget.maxTokens !== undefined)) {
    Budget.checkPriced(options.budget, options.models ?? [], prices);
    // A budget is for the whole run: what earlier invocations spent counts.
    budget = new Budget(options.budget, prices, tally); // the budget adds this invocation's rows to `tally`
  }
  const wholeCost = new RunCostTally(prices);
  let health = options.stdoutRows ? undefined : new LiveHealthCheck(paths.rollouts);
  // A resume over rows on disk without a budget starts dispatching at once: the store's pass only scans their
  // identities, and the health check and the cost read the finished file once at the end (old rows, then new, in
  // file order: the same reports). A budget needs the earlier spend before the first dispatch, so it parses them now.
  const deferred = inventory.resumed && !budget && hasBytes(paths.rollouts);
  let store: Map<string, Outcome>;
  try {
    store = await loadStore(paths.rollouts, paths.failures, reserved, options.retryTerminalTimeouts, {
      rollout: deferred ? undefined : (row, line) => {
        budget?.seed(row); // a budget is for the whole run: what earlier invocations spent counts
        wholeCost.add(row, "rollout");
        health?.addRead(row, line);
      },
      failure: (row) => {
        budget?.seed(row);
        wholeCost.add(row, "failure");
      },
    }, paths.outcomeIndex);
  } catch (error) {
    health?.abort();
    throw error;
  }
  for (const [id, attempt] of reserved) {
    const o = store.get(id);
    if (o?.kind === "success" && o.attempt >= attempt) reserved.delete(id);
  }
  traceMemory("store loaded");
  const expected = inventory.ids;
  const plan = planDispatch(inventory.rows, expected, store, maxAttempts, options.dispatchLongestFirst);
  if (inventory.resumed) log.info(resumeSummary(expected.length, store, plan.length, maxAttempts, expected));
  else log.info(`Collecting ${plan.length} rollouts (${inventory.tasks} tasks) at concurrency ${options.concurrency}.`);

  const status = new StatusWriter(paths.batchStatus, expected, store, !!options.disableAggregation);
  status.touch(true);
  // The rollouts file exists from here on, even if no rollout succeeds: recovery (`reverify --judge-failed-only`)
  // and every reader expect the run's own file, empty or not.
  // A run that starts with no rollouts on disk keeps its metric input as it writes the rows (scoring reads nothing back).
  const written = !options.disableAggregation && !hasBytes(paths.rollouts) ? new WrittenRollouts() : undefined;
  fs.closeSync(fs.openSync(paths.rollouts, "a"));
  const rollouts = CoalescingAppender.open(paths.rollouts);
  // After each row, its record in the outcome index (when the index covers the file: a resume then reads no row).
  const outcomeIndex = OutcomeIndexWriter.open(paths.outcomeIndex, paths.rollouts);
  const failures = CoalescingAppender.open(paths.failures);
  const journal = AttemptJournal.open(paths.attempts);
  const latency = new LatencyTracker();
  const progress = new Progress(plan.length);
  progress.extra = () => liveCost(tally, budget, progress.counts());
  const abort = new AbortController();
  const onOuterAbort = () => abort.abort();
  options.signal?.addEventListener("abort", onOuterAbort, { once: true });
  const failuresByClass: Record<string, number> = {};
  let notStarted = 0;
  let progressed = false;
  let abortedBy: string | null = null;
  let unroutedAfterStop = 0;
  const startedAt = performance.now();
  const callsAtStart = modelCallUsage();

  const reserve = async (request: DispatchRequest) => {
    reserved.set(request.id, request.attempt);
    await journal.reserve(request.id, request.attempt);
  };
  let healthDone = false;
  let sinceGc = 0;
  let traced = 0;
  const memory = new MemoryBound();
  let healthReport: CollectionResult["health"];
  try {
    for await (const event of collect(budget ? budget.gate(plan, abort.signal) : plan, {
      agents: options.agents,
      concurrency: options.concurrency,
      latency,
      reserve,
      routeFailuresToSidecar: !!options.routeFailuresToSidecar,
      deadlineMs: options.dispatchBudgetS === undefined ? undefined : startedAt + options.dispatchBudgetS * 1000,
      drainMarginS: options.drainMarginS,
      signal: abort.signal,
      timeoutMs: options.timeoutMs,
    })) {
      if (event.kind === "success" || event.kind === "failure") {
        if (budget) budget.record(event.row);
        else tally.add(event.row);
      } else budget?.finished();
      const outcome = await persist(event);
      // Each rollout leaves its answer objects behind: a full collection once the RSS passes a bound keeps the peak flat.
      if (++sinceGc >= 4096) (sinceGc = 0), memory.check();
      if (process.env.GYM_DEBUG_MEMORY && ++traced % 100_000 === 0) traceMemory(`dispatch ${traced}`);
      if (outcome) {
        const id = event.request.id;
        status.changed(store.get(id), outcome);
        store.set(id, outcome);
        // A rollout done is never dispatched again: its reservation says nothing more (the manifest keeps the others).
        if (outcome.kind === "success" && outcome.attempt >= (reserved.get(id) ?? Infinity)) reserved.delete(id);
      }
      status.touch(event.kind === "success" && progressed === false);
      if (event.kind === "success" || (event.kind === "failure" && outcome?.kind === "failure" && outcome.terminal)) progressed = true;
    }
    failures.flush(); // the health summary reads the failures sidecar (for missing rollouts)
    collectGarbage(); // the last rollouts' garbage goes before the summary's reads
    traceMemory("dispatched");
    if (deferred) {
      await rollouts.flush();
      health = await readRolloutsBack(paths.rollouts, health, wholeCost);
    }
    healthReport = await finishHealth(health);
    traceMemory("health written");
    healthDone = true;
  } finally {
    options.signal?.removeEventListener("abort", onOuterAbort);
    progress.finish();
    await Promise.all([rollouts.close(), failures.close(), journal.close()]);
    outcomeIndex?.close();
    // Fold the reservations into the manifest, then empty the journal (a crash in between only repeats them).
    writeManifest(paths.manifest, foldReservations(inventory.manifest, reserved));
    fs.rmSync(paths.attempts, { force: true });
    status.write();
    if (!healthDone) health?.abort();
  }
  if (options.signal?.aborted && !abortedBy) abortedBy = "interrupted";
  if (unroutedAfterStop > 0) log.warn(`${unroutedAfterStop} more rollouts in flight failed the same way while the run stopped (see ${paths.failures}).`);

  async function persist(event: CollectEvent): Promise<Outcome | undefined> {
    const id = event.request.id;
    const attempt = event.request.attempt;
    switch (event.kind) {
      case "success":
        const line = rolloutLine(event.row);
        rollouts.writeLine(line);
        outcomeIndex?.add(event.row, Buffer.byteLength(line));
        written?.add(line);
        if (!deferred) {
          wholeCost.add(event.row, "rollout");
          health?.add(event.row);
        }
        await options.stdoutRows?.writeLine(line);
        progress.success(event.row.reward);
        return success(attempt);
      case "failure": {
        failures.writeLine(toJsonLine(event.row));
        wholeCost.add(event.row, "failure");
        const cls = String(event.row._ng_failure_class);
        failuresByClass[cls] = (failuresByClass[cls] ?? 0) + 1;
        progress.failure();
        progress.log(`dropped ${id}: ${cls}: ${String(event.row._ng_failure_message ?? event.row._ng_failure_judge_error ?? "").slice(0, 200)}`);
        const terminal = event.row._ng_failure_terminal === true;
        return { kind: "failure", attempt, failureClass: cls, terminal, countsAsZero: event.row._ng_failure_counts_as_zero === true, savedAnswer: false };
      }
      case "drained":
        notStarted++;
        if (options.recordOmittedRollouts) {
          failures.writeLine(toJsonLine(event.row));
          wholeCost.add(event.row, "failure");
        }
        return undefined;
      case "unrouted":
        failures.writeLine(toJsonLine(event.row));
        wholeCost.add(event.row, "failure");
        if (abortedBy === null) {
          progress.log(`run stopping at ${id}: ${event.message.slice(0, 200)}`);
          abortedBy = `a /run call failed (${id}): ${event.message.slice(0, 300)}`;
          abort.abort();
        } else unroutedAfterStop++;
        return { kind: "missing", attempt };
    }
  }

  const result: CollectionResult = {
    exitCode: 0,
    expected: expected.length,
    succeeded: expected.filter((id) => store.get(id)?.kind === "success").length,
    failuresByClass,
    notStarted,
    scored: 0,
    counted: 0,
    imputed: 0,
    metrics: null,
    latency: latency.summary(notStarted),
    aborted: abortedBy,
    cost: null,
    budgetStop: budget?.stoppedBy ?? null,
    modelCalls: callsSpent(usageSince(callsAtStart), prices),
    health: healthReport,
  };
  // The whole run's cost (every row on disk, as `gym eval status` reads it), beside the rollouts.
  const whole = wholeCost.summary();
  if (whole.rows_with_usage > 0) {
    result.cost = whole;
    writeJsonAtomic(costFilePath(paths.rollouts), whole, 2);
  }
  const scored = await scoreRun({
    rolloutsPath: paths.rollouts,
    failuresPath: paths.failures,
    expected,
    materialized: inventory.rows,
    store,
    countFailureClassesAsZero: options.countFailureClassesAsZero ?? [],
    countMissingRolloutsAsZero: !!options.countMissingRolloutsAsZero && !options.disableAggregation,
    countOnly: !!options.disableAggregation,
    written,
  });
  Object.assign(result, { scored: scored.scored, counted: scored.counted, imputed: scored.imputed });
  if (!options.disableAggregation && scored.rows.length > 0) {
    result.metrics = await writeAggregateMetrics(paths.aggregateMetrics, scored.rows, options.agents);
    status.aggregation = "complete";
    status.write();
  }
  traceMemory("scored");
  const anythingScored = scored.scored + scored.counted + scored.imputed > 0;
  // SIGTERM is what Slurm sends at walltime: a run it cut short must never report a partial result as done (exit 0),
  // so the completion rules apply whatever require_complete says, and the chain resumes it (75) or retries it (1).
  const terminated = options.signal?.aborted === true && options.signal.reason === "SIGTERM";
  const requireComplete = !!options.requireComplete || terminated;
  if (abortedBy && abortedBy !== "interrupted") result.exitCode = 1;
  else {
    const requiredBy = options.requireComplete ? "require_complete=true" : "stopped by SIGTERM";
    result.completion = decideCompletion({ expected, store, maxAttempts, requireComplete, progressed, anythingScored, requiredBy });
    result.exitCode = result.completion.code;
  }
  // Stopped at the budget with rollouts left: 77 whatever else the run says, so a pipeline can tell it apart.
  if (result.budgetStop && result.exitCode !== EXIT.failure && expected.some((id) => store.get(id)?.kind !== "success")) result.exitCode = EXIT.budgetStopped;
  return result;
}

/** A resumed run's rollouts file, old rows and new, read once: into the health check and the cost, in file order. */
async function readRolloutsBack(file: string, health: LiveHealthCheck | undefined, cost: RunCostTally): Promise<LiveHealthCheck | undefined> {
  try {
    for await (const { value, line } of readJsonl(file, { allowTruncatedTail: true })) {
      cost.add(value, "rollout");
      health?.addRead(value, line);
    }
  } catch (error) {
    health?.abort();
    throw error;
  }
  return health;
}

function hasBytes(file: string): boolean {
  return (fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0) > 0;
}

/** The writer-fed health report: the summary, or why there is none (an empty file, as `healthCheck()` says it). */
async function finishHealth(health: LiveHealthCheck | undefined): Promise<CollectionResult["health"]> {
  if (!health) return undefined;
  try {
    return (await health.finish()) ?? undefined;
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The progress line's cost: $ so far (the whole run's under a budget) and a projection over the rest; tokens when nothing has a price. */
function liveCost(tally: CostTally, budget: Budget | undefined, counts: { done: number; total: number }): string {
  if (tally.rowsWithUsage === 0) return "";
  const rest = (spent: number) => (counts.done > 0 && counts.total > counts.done ? (spent / counts.done) * (counts.total - counts.done) : undefined);
  if (tally.priced) {
    const spent = budget ? budget.tally.spentUsd : tally.spentUsd;
    const more = rest(tally.spentUsd);
    const limit = budget?.limits.maxCostUsd !== undefined ? ` of ${formatUsd(budget.limits.maxCostUsd)}` : "";
    return ` ${formatUsd(spent)}${limit}${more !== undefined ? ` (~${formatUsd(spent + more)} projected)` : ""}`;
  }
  const spent = budget ? budget.tally.spentTokens : tally.spentTokens;
  const more = rest(tally.spentTokens);
  return ` ${spent.toLocaleString("en-US")} tokens${more !== undefined ? ` (~${Math.round(spent + more).toLocaleString("en-US")} projected)` : ""}`;
}

/** The rows to dispatch now (read from the inputs file as dispatch asks for them), with their attempt numbers. */
interface DispatchPlan extends Iterable<DispatchRequest> {
  readonly length: number;
}

/**
 * The rows to dispatch now, with their attempt numbers, decided from the store as it is before dispatch; longest-first
 * on resume when asked (rows whose earlier attempt took longest first). Only the decisions are held (a number per
 * row); the rows themselves are read back from the inputs file as dispatch pulls them.
 */
function planDispatch(rows: () => Iterable<Row>, ids: string[], store: Map<string, Outcome>, maxAttempts: number, longestFirst?: boolean): DispatchPlan {
  const attempts = new Int32Array(ids.length).fill(-1);
  const elapsed = new Map<number, number>();
  let length = 0;
  for (let i = 0; i < ids.length; i++) {
    const outcome = store.get(ids[i]!);
    const decision = eligibility(outcome, maxAttempts);
    if (decision === "run") attempts[i] = outcome ? outcome.attempt + 1 : 0;
    else if (decision === "retry" || decision === "replay") {
      attempts[i] = outcome!.attempt + 1;
      if (longestFirst && outcome!.kind === "failure" && outcome!.elapsed !== undefined && outcome!.elapsed > 0) elapsed.set(i, outcome!.elapsed);
    } else continue;
    length++;
  }
  // Longest first: those rows (a few failures) are read up front, sorted by their elapsed time (stable), then the rest in order.
  const first = [...elapsed].sort((a, b) => b[1] - a[1]).map(([i]) => i);
  return {
    length,
    *[Symbol.iterator]() {
      if (first.length > 0) {
        const picked = new Map<number, Row>();
        let i = 0;
        for (const row of rows()) {
          if (elapsed.has(i)) picked.set(i, row);
          if (picked.size === elapsed.size) break;
          i++;
        }
        for (const p of first) yield { id: ids[p]!, row: picked.get(p)!, attempt: attempts[p]! };
      }
      let i = 0;
      for (const row of rows()) {
        if (i >= ids.length) break;
        if (attempts[i]! >= 0 && !elapsed.has(i)) yield { id: ids[i]!, row, attempt: attempts[i]! };
        i++;
      }
    },
  };
}

function resumeSummary(total: number, store: Map<string, Outcome>, toRun: number, maxAttempts: number, expected: string[]): string {
  const counts: Record<string, number> = {};
  for (const id of expected) {
    const e = eligibility(store.get(id), maxAttempts);
    counts[e] = (counts[e] ?? 0) + 1;
  }
  const parts = Object.entries(counts).map(([k, v]) => `${v} ${k}`);
  return `Resuming: ${total} rollouts expected (${parts.join(", ")}); dispatching ${toRun}.`;
}

/** The reverify stage (`gym eval reverify`, native Gym input): replay stored responses through resources servers' /verify. */
import * as fs from "node:fs";
import { isStream } from "../../runtime/files.ts";
import * as os from "node:os";
import * as path from "node:path";
import { emptyInput, GymError } from "../../errors.ts";
import { mapConcurrent } from "../../jsonl/concurrency.ts";
import type { Row } from "../../jsonl/read.ts";
import { JsonlAppender } from "../../jsonl/write.ts";
import { acquireRunLock, type RunLock } from "../../outputs/lock.ts";
import { runPaths } from "../../outputs/paths.ts";
import { repairTornTail } from "../../outputs/repair.ts";
import type { ServerDirectory } from "../../servers/client.ts";
import { loadResumeCache, markPresent, seedSuccesses } from "./cache.ts";
import { loadInputs, type InputsIndex } from "./inputs.ts";
import { checkJoin, type Picked } from "./join.ts";
import type { IdentityKey } from "./lines.ts";
import { pickedRows } from "./picked.ts";
import { writeReverifyMetrics } from "./metrics.ts";
import { guardMessage, reverifyModes, Router, type ReverifyMode, type RouteInstance } from "./route.ts";
import { failedCallRow, verifyOne, type VerifyJob, type VerifyOutcome } from "./verify.ts";
import { validateReverifyOptions } from "./options.ts";

export interface ReverifyOptions {
  /** Agent instances an `--agent-type` swap renamed, old → new: rows stamped with an old name go to the new agent. */
  renamedAgents?: Record<string, string>;
  /** `*_materialized_inputs.jsonl` (or "-"). */
  inputs: string;
  /** The run's rollouts (or "-"; not with --judge-failed-only, whose sidecar is found beside this file). */
  rollouts: string;
  /** Output JSONL (or "-": rows to stdout, sidecars in a temporary folder). */
  output: string;
  /** The configured servers (routing reads agent → resources_server references). */
  instances: readonly RouteInstance[];
  /** Reaches the resources servers by instance name. */
  servers: ServerDirectory;
  force?: boolean;
  overwrite?: boolean;
  resume?: boolean;
  judgeFailedOnly?: boolean;
  append?: boolean;
  disableAggregation?: boolean;
  /** Verify calls in flight (default 256). */
  concurrency?: number;
  /** Pairs considered after the judge filter; with resume, completed ones count against it. */
  limit?: number;
  /** Failed /verify calls go to the sidecar (class agent_request_failed) instead of ending the run. */
  routeFailuresToSidecar?: boolean;
  retryTerminalTimeouts?: boolean;
  /** Resume's retry cap (NEMO_GYM_MAX_ROLLOUT_ATTEMPTS, default 3). */
  maxAttempts?: number;
  /** Aborted (Ctrl-C): no new calls start, the ones in flight are written, aggregation is skipped. */
  signal?: AbortSignal;
  log?: { info(message: string): void; warn(message: string): void };
}

export interface ReverifyReport {
  output: string;
  failures: string;
  aggregateMetrics: string | null;
  unsafe: boolean;
  reverifyModes: Record<string, ReverifyMode>;
  /** Source rows joined (before --limit / --resume). */
  candidates: number;
  seeded: number;
  skipped: { done: number; terminal: number; maxedOut: number };
  verified: number;
  succeeded: number;
  failuresByClass: Record<string, number>;
  noPersist: number;
  interrupted: boolean;
  metrics: Row[] | null;
}

const silent = { info: () => {}, warn: () => {} };

/** Runs a whole reverification (collection.md §6.4/§6.5). Errors are GymErrors; nothing written is ever removed except by --overwrite. */
export async function reverify(o: ReverifyOptions): Promise<ReverifyReport> {
  validateReverifyOptions(o);
  const log = o.log ?? silent;
  const index = await loadInputs(o.inputs);
  const piped = isStream(o.rollouts);
  const rolloutsFile = piped ? await spillStdin(o.rollouts) : o.rollouts;
  try {
    return await reverifyFrom(o, index, rolloutsFile, log);
  } finally {
    if (piped) fs.rmSync(path.dirname(rolloutsFile), { recursive: true, force: true });
  }
}

async function reverifyFrom(o: ReverifyOptions, index: InputsIndex, rolloutsFile: string, log: NonNullable<ReverifyOptions["log"]>): Promise<ReverifyReport> {
  const judge = !!o.judgeFailedOnly;
  const toStdout = o.output === "-";
  const source = judge ? runPaths(rolloutsFile).failures : rolloutsFile;
  const router = new Router(o.instances, log.warn, o.renamedAgents);

  // The existing output's identities are the judge filter's skip set when the output is kept (append/resume).
  const keepOutput = !toStdout && (o.append || o.resume);
  const strayKeys = new Set<IdentityKey>();
  if (judge) {
    log.warn("--judge-failed-only merges rewards from two sources: the successes in --rollouts keep the original run's rewards, the recovered rows are scored by the current verifier config. Keep the verifier and judge config identical to the original run.");
    if (keepOutput) await markPresent(o.output, index, strayKeys);
  }
  const sourceExists = fs.existsSync(source);
  // Every input is checked before any output is opened: a refused run leaves nothing that would refuse the retry.
  if (!fs.existsSync(rolloutsFile)) {
    const orphan = judge && sourceExists;
    throw new GymError("E_INPUT_NOT_FOUND", `File not found: ${o.rollouts} (--rollouts)${orphan ? `, though its failures sidecar ${source} exists` : ""}.`, {
      hint: orphan
        ? `A run in which no rollout succeeded may have left no rollouts file (earlier gym builds wrote none): create it empty (touch ${o.rollouts}) and run the same command again.`
        : `Check the path (relative paths start at ${process.cwd()}).`,
    });
  }
  if (judge && !sourceExists) log.warn(`No failures sidecar at ${source}: there are no judge failures to recover.`);
  const joined = sourceExists ? await checkJoin(source, index, router, { judge }) : { candidates: 0, servers: new Set<string>(), picked: undefined };

  if (!judge && joined.candidates === 0) throw emptyInput(o.rollouts === "-" ? "<stdin>" : o.rollouts, "--rollouts");
  // The guard runs before the first /verify and before any output file is touched.
  const modes = judge ? new Map() : await reverifyModes(joined.servers, o.servers);
  const warning = judge ? undefined : guardMessage(modes, !!o.force);
  if (warning) log.warn(warning);

  const target = toStdout ? path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gym-reverify-")), "rollouts.jsonl") : withPrefix(o.output, warning ? "unsafe_" : "");
  const paths = runPaths(target);
  const lock: RunLock | undefined = toStdout ? undefined : acquireRunLock(paths.lock, target);
  try {
    prepareOutputs(paths, !!keepOutput, !!o.overwrite, log);
    let seeded = 0;
    if (judge) {
      seeded = await seedSuccesses(rolloutsFile, paths.rollouts, index, strayKeys);
      log.info(`Recovery mode: seeded ${seeded} successful rollout(s) into ${paths.rollouts}`);
    }
    const maxAttempts = o.maxAttempts ?? 3;
    const skipped = o.resume ? await loadResumeCache(paths.rollouts, paths.failures, index, maxAttempts, !!o.retryTerminalTimeouts) : { done: 0, terminal: 0, maxedOut: 0 };
    if (o.resume) log.info(`Resuming: ${skipped.done} row(s) already in the output, ${skipped.terminal} terminal and ${skipped.maxedOut} at the retry cap in its failures sidecar are skipped.`);

    const report: ReverifyReport = {
      output: toStdout ? "-" : paths.rollouts,
      failures: paths.failures,
      aggregateMetrics: null,
      unsafe: !!warning,
      reverifyModes: Object.fromEntries([...modes].map(([k, v]) => [k, v.mode])),
      candidates: joined.candidates,
      seeded,
      skipped,
      verified: 0,
      succeeded: 0,
      failuresByClass: {},
      noPersist: 0,
      interrupted: false,
      metrics: null,
    };
    const progress = progressReporter(Math.min(joined.candidates, o.limit ?? Infinity), log);
    const aborted = await verifyAll(o, source, joined.picked, index, paths, report, maxAttempts, log, progress);
    // The inputs index is the run's largest table; the metrics request must not have to share memory with it.
    index.entries.clear();
    if (aborted) throw aborted;
    if (report.interrupted) return report;
    if (report.verified === 0) log.warn("Nothing to be re-verified.");
    if (o.disableAggregation) {
      log.info("Skipping aggregate metrics (--disable-aggregation). Run `gym eval aggregate` over the shards to compute them.");
    } else if (fs.existsSync(paths.rollouts)) {
      report.metrics = await writeReverifyMetrics(paths.rollouts, paths.aggregateMetrics, router, o.servers);
      report.aggregateMetrics = report.metrics ? paths.aggregateMetrics : null;
    }
    if (warning) log.warn(warning);
    return report;
  } finally {
    lock?.release();
  }
}

/** Reads the picked rows again (by range), verifies them under the concurrency limit and routes every answer to disk. Returns the error that ended the run, if any. */
async function verifyAll(o: ReverifyOptions, source: string, maybePicked: Picked | undefined, index: InputsIndex, paths: ReturnType<typeof runPaths>, report: ReverifyReport, maxAttempts: number, log: NonNullable<ReverifyOptions["log"]>, progress: () => void): Promise<GymError | undefined> {
  if (!maybePicked) return undefined;
  const picked = maybePicked;
  let stop: GymError | undefined;
  const judge = !!o.judgeFailedOnly;
  async function* jobs(): AsyncGenerator<VerifyJob> {
    for (const { entry, row } of pickedRows(source, picked, { judge, limit: o.limit, resume: !!o.resume, maxAttempts, progress })) {
      if (stop || o.signal?.aborted) return;
      yield { entry, rollout: row.value, source: row.source, line: row.line };
    }
  }
  const output = JsonlAppender.open(paths.rollouts);
  const stdout = o.output === "-" ? JsonlAppender.open("-") : undefined;
  let failures: JsonlAppender | undefined;
  const sidecar = async (line: string) => {
    failures ??= JsonlAppender.open(paths.failures);
    await failures.writeLine(line);
  };
  try {
    for await (const outcome of mapConcurrent(jobs(), o.concurrency ?? 256, (job) => verifyOne(job, o.servers))) {
      report.verified++;
      progress();
      if (outcome.kind === "failed") {
        await onFailedCall(outcome, !!o.routeFailuresToSidecar, sidecar, report, log);
        if (!o.routeFailuresToSidecar) stop ??= abortError(outcome);
        continue;
      }
      const { body } = outcome;
      if (body._ng_no_persist === true) report.noPersist++;
      else if (body._ng_failure_class !== undefined && body._ng_failure_class !== null) {
        const failureClass = String(body._ng_failure_class);
        report.failuresByClass[failureClass] = (report.failuresByClass[failureClass] ?? 0) + 1;
        await sidecar(outcome.line);
        log.warn(`Dropped rollout ${identityText(outcome.job)} → ${paths.failures}: ${failureClass}: ${String(body._ng_failure_message ?? body._ng_failure_judge_error ?? body.failure_reason ?? "").slice(0, 200)}`);
      } else {
        await output.writeLine(outcome.line);
        await stdout?.writeLine(outcome.line);
        report.succeeded++;
      }
    }
  } finally {
    await output.close();
    await failures?.close();
  }
  report.interrupted = !stop && !!o.signal?.aborted;
  return stop;
}

async function onFailedCall(outcome: Extract<VerifyOutcome, { kind: "failed" }>, routed: boolean, sidecar: (line: string) => Promise<void>, report: ReverifyReport, log: NonNullable<ReverifyOptions["log"]>): Promise<void> {
  if (routed) report.failuresByClass.agent_request_failed = (report.failuresByClass.agent_request_failed ?? 0) + 1;
  // Unrouted, the failure still leaves one evidence row (not an attempt; every reader skips it), as collection does.
  await sidecar(`${JSON.stringify(failedCallRow(outcome, !routed))}\n`);
  log.warn(`/verify failed for rollout ${identityText(outcome.job)} (${outcome.job.source}:${outcome.job.line}): ${outcome.message}${outcome.body ? `: ${outcome.body.slice(0, 200)}` : ""}`);
}

function abortError(outcome: Extract<VerifyOutcome, { kind: "failed" }>): GymError {
  return new GymError("E_HTTP", `Re-verification stopped: /verify failed for rollout ${identityText(outcome.job)} at ${outcome.job.source}:${outcome.job.line}: ${outcome.message}${outcome.body ? `: ${outcome.body.slice(0, 300)}` : ""}`, {
    hint: "Rows verified so far are saved. Fix the cause and run again with --resume, or add +route_failures_to_sidecar=true to record such rows in the failures sidecar and continue.",
  });
}

function identityText(job: VerifyJob): string {
  return `(task ${job.entry.stamps._ng_task_index}, rollout ${job.entry.stamps._ng_rollout_index})`;
}

const CHECKPOINTS = [20, 40, 60, 80, 90, 95, 98, 99, 100];

/** Counts settled rows and logs NeMo Gym's percent checkpoints (runs of 1,000+ rows only: small ones finish at once). */
function progressReporter(total: number, log: NonNullable<ReverifyOptions["log"]>): () => void {
  if (total < 1000) return () => {};
  const start = performance.now();
  let done = 0;
  let next = 0;
  return () => {
    done++;
    if (next >= CHECKPOINTS.length || (100 * done) / total < CHECKPOINTS[next]!) return;
    while (next < CHECKPOINTS.length && (100 * done) / total >= CHECKPOINTS[next]!) next++;
    const seconds = (performance.now() - start) / 1000;
    log.info(`Re-verified ${done} / ${total} rollouts (${CHECKPOINTS[next - 1]}%), ${Math.round(done / Math.max(seconds, 1e-3))} rollouts/s`);
  };
}

/** `results/x.jsonl` → `results/unsafe_x.jsonl` (the sidecars then derive from the prefixed name). */
function withPrefix(file: string, prefix: string): string {
  return prefix ? path.join(path.dirname(file), prefix + path.basename(file)) : file;
}

/** A fresh run refuses (or, with --overwrite, deletes) an existing output and sidecar; a kept output gets its torn tail repaired. */
function prepareOutputs(paths: ReturnType<typeof runPaths>, keep: boolean, overwrite: boolean, log: NonNullable<ReverifyOptions["log"]>): void {
  fs.mkdirSync(paths.dir, { recursive: true });
  if (keep) {
    for (const file of [paths.rollouts, paths.failures]) {
      const dropped = repairTornTail(file);
      if (dropped > 0) log.warn(`Removed a torn last line (${dropped} bytes) from ${file}; that row is verified again.`);
    }
    return;
  }
  for (const file of [paths.rollouts, paths.failures]) {
    if (!fs.existsSync(file)) continue;
    if (!overwrite) {
      throw new GymError("E_OUTPUT_EXISTS", `Output file already exists: ${file}`, { hint: "Pass --overwrite to delete it and start fresh, or --resume to continue from it." });
    }
    fs.rmSync(file);
    log.info(`Deleted existing output file: ${file}`);
  }
  // A fresh output must not sit beside the metrics of an older one.
  if (overwrite) fs.rmSync(paths.aggregateMetrics, { force: true });
}

async function spillStdin(source: string): Promise<string> {
  const { spillStdin: spill } = await import("../aggregate/shards.ts");
  return spill(source);
}

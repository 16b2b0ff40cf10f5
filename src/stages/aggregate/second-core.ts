/**
 * Aggregate's second core after the parse: a worker (started before the parse, so its start-up is hidden)
 * that takes one job — the baseline metrics file, or else the merged copy — while the main thread does the
 * rest. Without workers, or if the worker fails, the main thread does the job itself (and so reports the
 * real error, if any). Opt-in (GYM_AGGREGATE_WORKER=1): see the constructor for why.
 */
import * as fs from "node:fs";
import type { MergeJob } from "./copy.ts";
import type { MetricsJob } from "./metrics.ts";
import type { TableState } from "../../metrics/rollout-table.ts";

const debug = (message: string) => {
  if (process.env.GYM_DEBUG_WORKERS) process.stderr.write(`[gym] ${message}\n`);
};

/** Where the worker's module is (inside a compiled binary: beside the entrypoint; see _aggregate-hash.ts). */
function workerUrl(): string {
  if (import.meta.url.includes("/$bunfs/")) return new URL("./stages/aggregate/worker.ts", import.meta.url).href;
  return new URL("./worker.ts", import.meta.url).href;
}

/** The worker's answer: a closed temporary file to put in place, or why not (a metrics job hands its table back). */
export interface SecondCoreReply {
  tmp?: string;
  warnings?: string[];
  error?: string;
  table?: TableState;
}

export class SecondCore {
  private worker: Worker | null;
  private ready = false;
  private failed: string | null = null;
  private pending: Promise<SecondCoreReply> | null = null;
  private resolve: ((reply: SecondCoreReply) => void) | null = null;
  private loaded: () => void = () => {};
  private readonly loading = new Promise<void>((resolve) => (this.loaded = resolve));

  constructor() {
    // Off unless GYM_AGGREGATE_WORKER=1. On this 2-core machine under load (issue 19) the split was slower
    // than one thread: shape (c) 200 MB, median of 4 interleaved runs, CPU 1.36 s on one thread vs 1.55 s
    // (metrics file on the worker) and 1.58 s (merged copy on it), wall no better; and with the copy on the
    // worker the peak at 1 GB went past 300 MB (313 MB vs 241 MB). The same switch puts the shards' sha256 on a worker.
    if (process.env.GYM_AGGREGATE_WORKER !== "1") {
      this.worker = null;
      return;
    }
    try {
      const worker = (this.worker = new Worker(workerUrl(), { type: "module" }));
      worker.onmessage = (event: MessageEvent) => {
        const data = event.data as SecondCoreReply & { ready?: boolean };
        if (data.ready) (this.ready = true), this.loaded();
        else this.resolve?.(data);
      };
      worker.onerror = (event: ErrorEvent) => {
        event.preventDefault?.();
        this.failed = event.message || "worker error";
        this.resolve?.({ error: this.failed });
        this.loaded();
      };
    } catch (error) {
      debug(`aggregate on one core (no worker: ${(error as Error).message})`);
      this.worker = null;
    }
  }

  /** Whether the worker has loaded and not failed: only then may buffers be moved to it. */
  get running(): boolean {
    return this.worker !== null && this.ready && this.failed === null;
  }

  /** Waits until the worker has loaded (or failed); then `running` says which. */
  async whenLoaded(): Promise<boolean> {
    if (this.worker && !this.ready && !this.failed) await this.loading;
    return this.running;
  }

  /** Whether a job can be posted at all (a worker that may still be loading counts). */
  get usable(): boolean {
    return this.worker !== null && this.failed === null;
  }

  /** Posts the one job (moving `transfer`'s buffers). */
  post(job: { merge: MergeJob } | { metrics: MetricsJob }, transfer: ArrayBuffer[] = []): void {
    const worker = this.worker!;
    this.pending = new Promise((resolve) => {
      this.resolve = resolve;
      if (this.failed) return resolve({ error: this.failed });
      worker.postMessage(job, transfer);
    });
  }

  /** The job's answer (the worker is ended once it is in). */
  async reply(): Promise<SecondCoreReply> {
    const reply = this.pending ? await this.pending : { error: "no worker" };
    this.stop();
    debug(reply.tmp ? "aggregate job done in a worker" : `aggregate job on the main thread (worker: ${reply.error})`);
    return reply;
  }

  /** The stage failed: ends the worker and removes a file it may have made. */
  async abandon(): Promise<void> {
    if (!this.worker) return;
    if (!this.pending) return this.stop();
    const reply = await this.pending;
    this.stop();
    if (reply.tmp) fs.rmSync(reply.tmp, { force: true });
  }

  stop(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}

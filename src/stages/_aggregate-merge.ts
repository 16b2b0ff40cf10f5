/**
 * Aggregate's merged copy on the second core: a worker (started before the parse, so its start-up is hidden)
 * copies the rows while the main thread computes and writes the metrics. Without workers, or if the worker
 * fails, the copy runs on the main thread (which then reports the real error, if any).
 */
import * as fs from "node:fs";
import { ByteWriter, copyMerged, type MergeJob } from "./_aggregate-copy.ts";

const debug = (message: string) => {
  if (process.env.GYM_DEBUG_WORKERS) process.stderr.write(`[gym] ${message}\n`);
};

/** Where the worker's module is (inside a compiled binary: beside the entrypoint; see _aggregate-hash.ts). */
function workerUrl(): string {
  if (import.meta.url.includes("/$bunfs/")) return new URL("./stages/_merge-worker.ts", import.meta.url).href;
  return new URL("./_merge-worker.ts", import.meta.url).href;
}

/** A merged copy to come: `start` posts the job; `done` renames the copy into place (or copies here). */
export class MergeCopy {
  private worker: Worker | null;
  private pending: Promise<{ tmp?: string; error?: string }> | null = null;
  private job: MergeJob | null = null;

  constructor() {
    try {
      this.worker = new Worker(workerUrl(), { type: "module" });
    } catch (error) {
      debug(`merged copy on the main thread (no worker: ${(error as Error).message})`);
      this.worker = null;
    }
  }

  /** Starts copying (in the worker when there is one; else nothing happens until `done`). */
  start(job: MergeJob): void {
    this.job = job;
    const worker = this.worker;
    if (!worker) return;
    this.pending = new Promise((resolve) => {
      worker.onmessage = (event: MessageEvent) => resolve(event.data as { tmp?: string; error?: string });
      worker.onerror = (event: ErrorEvent) => {
        event.preventDefault?.();
        resolve({ error: event.message });
      };
      worker.postMessage(job);
    });
  }

  /** Waits for the copy and puts it in place; copies on this thread if the worker could not. */
  async done(): Promise<void> {
    const job = this.job!;
    const result = this.pending ? await this.pending : { error: "no worker" };
    this.stop();
    if (result.tmp) {
      debug("merged copy written in a worker");
      return ByteWriter.place(result.tmp, job.target);
    }
    debug(`merged copy on the main thread (worker: ${result.error})`);
    copyMerged(job).commit();
  }

  /** The stage failed: ends the worker and removes a copy it may have made. */
  async abandon(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    if (!this.pending) return worker.terminate();
    const result = await this.pending;
    worker.terminate();
    if (result.tmp) fs.rmSync(result.tmp, { force: true });
  }

  /** Ends the worker. */
  stop(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}

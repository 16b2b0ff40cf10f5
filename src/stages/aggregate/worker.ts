/**
 * Worker body for aggregate's second core, after the parse: either the merged copy or the baseline metrics
 * file, written to a temporary file that the main thread puts in place. It says { ready } once loaded (the
 * main thread only moves buffers to a worker that is running). Message in: { merge: MergeJob } or
 * { metrics: MetricsJob }; out: { tmp, warnings? } or { error, table? } (a metrics job hands its table back).
 * Listed as an extra entrypoint in scripts/build.ts so the compiled binary carries it.
 */
import { copyMerged, type MergeJob } from "./copy.ts";
import { type MetricsJob, runMetricsJob } from "./metrics.ts";

const scope = globalThis as unknown as { onmessage: ((event: MessageEvent) => void) | null; postMessage(message: unknown, transfer?: ArrayBuffer[]): void };
scope.onmessage = (event: MessageEvent) => {
  const job = event.data as { merge?: MergeJob; metrics?: MetricsJob };
  try {
    if (job.merge) return scope.postMessage({ tmp: copyMerged(job.merge).close() });
    const { file, warnings } = runMetricsJob(job.metrics!);
    scope.postMessage({ tmp: file.close(), warnings });
  } catch (error) {
    const message = String((error as Error)?.message ?? error);
    const table = job.metrics?.table;
    if (!table) return scope.postMessage({ error: message });
    scope.postMessage({ error: message, table }, [table.shapeOf.buffer as ArrayBuffer, ...new Set(table.data.map((d) => d.buffer as ArrayBuffer))]);
  }
};
scope.postMessage({ ready: true });

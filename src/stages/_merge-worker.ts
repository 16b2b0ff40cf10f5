/**
 * Worker body: aggregate's merged copy (rows in merged order, as bytes) written to a temporary file while the
 * main thread computes and writes the metrics. Message in: a MergeJob; out: { tmp } (the caller renames it
 * into place) or { error }. Listed as an extra entrypoint in scripts/build.ts so the compiled binary carries it.
 */
import { copyMerged, type MergeJob } from "./_aggregate-copy.ts";

const scope = globalThis as unknown as { onmessage: ((event: MessageEvent) => void) | null; postMessage(message: unknown): void };
scope.onmessage = (event: MessageEvent) => {
  try {
    scope.postMessage({ tmp: copyMerged(event.data as MergeJob).close() });
  } catch (error) {
    scope.postMessage({ error: String((error as Error)?.message ?? error) });
  }
};

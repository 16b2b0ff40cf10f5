/**
 * The shards' sha256 for `_sources.json`, computed in a worker while the main thread parses, when
 * GYM_AGGREGATE_WORKER=1 (the default hashes the blocks the parse reads: see aggregate's scanShards).
 * Without workers (or if one fails) the caller hashes on its own thread.
 */
import { createHash } from "node:crypto";

const debug = (message: string) => {
  if (process.env.GYM_DEBUG_WORKERS) process.stderr.write(`[gym] ${message}\n`);
};

/**
 * Where the worker's module is. In a compiled Bun binary every module is inlined into the main entrypoint
 * (`/$bunfs/root/gym`, Bun's documented internal prefix) and the worker, an extra entrypoint of
 * scripts/build.ts, sits at its path under src/ — so the name is taken relative to the binary, not to this file.
 */
function workerUrl(): string {
  if (import.meta.url.includes("/$bunfs/")) return new URL("./stages/aggregate/hash-worker.ts", import.meta.url).href;
  return new URL("./hash-worker.ts", import.meta.url).href;
}

/** Hashing under way: `digests` gives them in file order, or null when no worker could (then hash inline). */
export interface Hashing {
  digests: Promise<string[] | null>;
  /** Ends the worker early (the scan failed). */
  stop(): void;
}

/** Starts hashing `files` in a worker. */
export function hashInWorker(files: string[]): Hashing {
  let worker: Worker;
  try {
    worker = new Worker(workerUrl(), { type: "module" });
  } catch (error) {
    debug(`sha256 on the main thread (no worker: ${(error as Error).message})`);
    return { digests: Promise.resolve(null), stop() {} };
  }
  let stop = () => {};
  const digests = new Promise<string[] | null>((resolve) => {
    const done = (digests: string[] | null, why?: string) => {
      debug(digests ? "sha256 computed in a worker" : `sha256 on the main thread (worker: ${why})`);
      worker.terminate();
      resolve(digests);
    };
    stop = () => {
      worker.terminate();
      resolve(null);
    };
    worker.onmessage = (event: MessageEvent) => {
      const data = event.data as { digests?: string[]; error?: string };
      done(data.digests ?? null, data.error);
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault?.();
      done(null, event.message);
    };
    worker.postMessage({ files });
  });
  return { digests, stop: () => stop() };
}

/** The fallback: sha256 of a file on this thread. */
export async function hashHere(file: string): Promise<string> {
  const { readBytes } = await import("../../runtime/files.ts");
  const hash = createHash("sha256");
  for await (const chunk of readBytes(file, { reuseBuffer: true })) hash.update(chunk);
  return hash.digest("hex");
}

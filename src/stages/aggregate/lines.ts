/**
 * Aggregate's shard lines, split (and typing-hinted) on a worker while the main thread parses the previous
 * batch. Without workers, or if the worker fails, the main thread reads the lines itself, from the batch the
 * worker stopped at (batches are the same on either thread), so a read error is reported as it always was.
 */
import { TypingHints } from "../../metrics/rollout-parse.ts";
import { type LineBatch, scanLineBatches } from "./shards.ts";

/** A batch of lines and, when the worker read it, its lines' typing hints. */
export interface HintedBatch extends LineBatch {
  hints: TypingHints | null;
}

interface Message {
  text?: string;
  ends?: Int32Array;
  offsets?: Float64Array;
  lengths?: Int32Array;
  firstLine?: number;
  lossy?: boolean;
  keys?: string;
  flags?: Uint8Array;
  starts?: Int32Array;
  end?: boolean;
  sha256?: string;
  error?: string;
}

const debug = (message: string) => {
  if (process.env.GYM_DEBUG_WORKERS) process.stderr.write(`[gym] ${message}\n`);
};

function workerUrl(): string {
  if (import.meta.url.includes("/$bunfs/")) return new URL("./stages/aggregate/lines-worker.ts", import.meta.url).href;
  return new URL("./lines-worker.ts", import.meta.url).href;
}

async function* onThisThread(file: string, skip: number): AsyncGenerator<HintedBatch> {
  let k = 0;
  for await (const batch of scanLineBatches(file)) if (k++ >= skip) yield { ...batch, hints: null };
}

export class LineWorker {
  private worker: Worker | null = null;
  private queue: Message[] = [];
  private waiting: ((message: Message) => void) | null = null;
  /** [batches taken so far, whether the worker waits]: shared with the worker (which stays a few batches ahead). */
  private readonly taken = new Int32Array(new SharedArrayBuffer(8));
  /** The sha256 of each file the worker read whole. */
  readonly digests = new Map<string, string>();

  constructor() {
    if (process.env.GYM_AGGREGATE_WORKER === "0") return;
    try {
      const worker = (this.worker = new Worker(workerUrl(), { type: "module" }));
      worker.onmessage = (event: MessageEvent) => this.deliver(event.data as Message);
      worker.onerror = (event: ErrorEvent) => {
        event.preventDefault?.();
        this.deliver({ error: event.message || "worker error" });
      };
    } catch (error) {
      debug(`lines on the main thread (no worker: ${(error as Error).message})`);
      this.worker = null;
    }
  }

  private deliver(message: Message): void {
    const waiting = this.waiting;
    if (waiting) (this.waiting = null), waiting(message);
    else this.queue.push(message);
  }

  private next(): Promise<Message> {
    const queued = this.queue.shift();
    return queued ? Promise.resolve(queued) : new Promise((resolve) => (this.waiting = resolve));
  }

  /** The lines of `file` in batches (as scanLineBatches gives them), with typing hints when the worker read them. */
  async *batches(file: string): AsyncGenerator<HintedBatch> {
    const worker = this.worker;
    if (!worker) return yield* onThisThread(file, 0);
    worker.postMessage({ file, taken: this.taken });
    for (let taken = 0; ; taken++) {
      const m = await this.next();
      if (m.end) {
        debug(`lines of ${file} read (and hashed) in a worker`);
        return void this.digests.set(file, m.sha256!);
      }
      if (m.error !== undefined) {
        debug(`lines on the main thread from batch ${taken} (worker: ${m.error})`);
        this.stop();
        return yield* onThisThread(file, taken);
      }
      Atomics.add(this.taken, 0, 1);
      if (Atomics.load(this.taken, 1) === 1) Atomics.notify(this.taken, 0);
      const { text, ends } = m as Required<Message>;
      const texts = new Array<string>(ends.length);
      for (let i = 0, at = 0; i < ends.length; i++) texts[i] = text.slice(at, (at = ends[i]!));
      yield {
        texts,
        firstLine: m.firstLine!,
        offsets: m.offsets as unknown as number[],
        lengths: m.lengths as unknown as number[],
        lossy: m.lossy!,
        hints: TypingHints.from(m.keys!.split("\n"), m.flags!, m.starts!),
      };
    }
  }

  /** Whether the worker will read the files (and hash them). */
  get usable(): boolean {
    return this.worker !== null;
  }

  stop(): void {
    this.worker?.terminate();
    this.worker = null;
    this.queue = [];
  }
}

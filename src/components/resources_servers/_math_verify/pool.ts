/**
 * Verifications off the event loop with a hard time limit (NeMo Gym forks a child and kills it after
 * library_verifier_timeout_seconds): workers that are terminated when a comparison runs past the limit, which
 * then scores 0. At most `maxConcurrency` at once (library_verifier_max_concurrency). Without workers (a
 * runtime that has none) verification runs inline.
 */
import { type Verdict, mathVerify } from "./index.ts";
import { mathEqual } from "./math-equal.ts";

function workerUrl(): string {
  if (import.meta.url.includes("/$bunfs/")) return new URL("./components/resources_servers/_math_verify/verify-worker.ts", import.meta.url).href;
  return new URL("./verify-worker.ts", import.meta.url).href;
}

interface Slot {
  worker: Worker;
  busy: boolean;
}

export interface TimedVerdict extends Verdict {
  timed_out?: boolean;
}

export class VerifierPool {
  private idle: Slot[] = [];
  private live = 0;
  private waiting: (() => void)[] = [];
  private nextId = 0;
  private noWorkers = false;
  constructor(
    readonly timeoutSeconds: number,
    readonly maxConcurrency: number,
    readonly maxWorkers = 2,
  ) {}

  private spawn(): Slot | null {
    if (this.noWorkers) return null;
    try {
      const worker = new Worker(workerUrl(), { type: "module" });
      (worker as unknown as { unref?: () => void }).unref?.();
      return { worker, busy: false };
    } catch {
      this.noWorkers = true;
      return null;
    }
  }

  async verify(expected: string, generated: string): Promise<TimedVerdict> {
    const verdict = await this.run<Verdict>({ expected, generated }, () => mathVerify(expected, generated), { reward: 0, extracted_answer: null });
    return verdict ?? { reward: 0, extracted_answer: null, timed_out: true };
  }

  /** math_equal (math-equal.ts) off the event loop; `null` when it ran past the limit. */
  mathEqual(gold: string | null, predicted: string): Promise<boolean | null> {
    return this.run<boolean>({ kind: "math_equal", expected: gold, generated: predicted }, () => mathEqual(gold, predicted), false);
  }

  /** One job on a worker (inline without workers); `null` past the time limit, `failed` when the worker dies. */
  private async run<T>(message: Record<string, unknown>, inline: () => T, failed: T): Promise<T | null> {
    while (this.live >= Math.min(this.maxConcurrency, this.maxWorkers)) await new Promise<void>((r) => this.waiting.push(r));
    this.live++;
    try {
      const slot = this.idle.pop() ?? this.spawn();
      if (!slot) return inline();
      const id = this.nextId++;
      const result = await new Promise<{ value: T } | null>((resolve) => {
        const timer = setTimeout(() => {
          slot.worker.terminate();
          resolve(null);
        }, this.timeoutSeconds * 1000);
        slot.worker.onmessage = (e: MessageEvent) => {
          if ((e.data as { id: number }).id !== id) return;
          clearTimeout(timer);
          resolve({ value: (e.data as { verdict: T }).verdict });
        };
        slot.worker.onerror = () => {
          clearTimeout(timer);
          slot.worker.terminate();
          resolve({ value: failed });
        };
        slot.worker.postMessage({ id, ...message });
      });
      if (result === null) return null;
      this.idle.push(slot);
      return result.value;
    } finally {
      this.live--;
      this.waiting.shift()?.();
    }
  }

  close(): void {
    for (const s of this.idle) s.worker.terminate();
    this.idle = [];
  }
}

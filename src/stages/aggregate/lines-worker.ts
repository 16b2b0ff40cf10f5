/**
 * Worker body for aggregate's parse: reads a shard (hashing it on the way), splits it into lines (the main thread's own
 * scanLineBatches) and notes each line's typing hints, so the main thread only parses. A batch goes out as
 * one string plus where each line ends; at most a few batches are ahead of the main thread (it counts the
 * batches it takes in a shared counter: no message back). Message in: { file, taken }; out: batches, then
 * { end, sha256 } or { error }.
 * Listed as an extra entrypoint in scripts/build.ts so the compiled binary carries it.
 */
import { createHash } from "node:crypto";
import { TypingHints } from "../../metrics/rollout-parse.ts";
import { scanLineBatches } from "./shards.ts";

/** Batches (of ~1 MB) sent before the main thread takes one. */
const AHEAD = 4;

const scope = globalThis as unknown as { onmessage: ((event: MessageEvent) => void) | null; postMessage(message: unknown, transfer?: ArrayBuffer[]): void };
/** Batches sent, over all files (the main thread's counter counts those it took). */
let sent = 0;

async function send(file: string, taken: Int32Array): Promise<string> {
  const hash = createHash("sha256");
  for await (const batch of scanLineBatches(file, hash)) {
    for (let seen = Atomics.load(taken, 0); sent - seen >= AHEAD; seen = Atomics.load(taken, 0)) {
      // Slot 1 says a wait is on, so the main thread wakes this one only when it sleeps.
      Atomics.store(taken, 1, 1);
      if (Atomics.load(taken, 0) === seen) Atomics.wait(taken, 0, seen, 50);
      Atomics.store(taken, 1, 0);
    }
    sent++;
    const hints = new TypingHints();
    const n = batch.texts.length;
    const ends = new Int32Array(n);
    for (let i = 0, at = 0; i < n; i++) {
      const text = batch.texts[i]!;
      hints.add(text);
      ends[i] = at += text.length;
    }
    const offsets = Float64Array.from(batch.offsets);
    const lengths = Int32Array.from(batch.lengths);
    const flags = Uint8Array.from(hints.flags);
    const starts = Int32Array.from(hints.starts);
    const message = { text: batch.texts.join(""), ends, offsets, lengths, firstLine: batch.firstLine, lossy: batch.lossy, keys: hints.keys.join("\n"), flags, starts };
    scope.postMessage(message, [ends.buffer, offsets.buffer, lengths.buffer, flags.buffer, starts.buffer]);
  }
  return hash.digest("hex");
}

scope.onmessage = (event: MessageEvent) => {
  const data = event.data as { file: string; taken: Int32Array };
  send(data.file, data.taken).then(
    (sha256) => scope.postMessage({ end: true, sha256 }),
    (error) => scope.postMessage({ error: String((error as Error)?.message ?? error) }),
  );
};

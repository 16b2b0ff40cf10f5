/** The worker side of pool.ts: one verification per message. */
import { mathVerify } from "./index.ts";

declare const self: { onmessage: ((e: MessageEvent) => void) | null; postMessage(m: unknown): void };
self.onmessage = (e: MessageEvent) => {
  const { id, expected, generated } = e.data as { id: number; expected: string; generated: string };
  self.postMessage({ id, verdict: mathVerify(expected, generated) });
};

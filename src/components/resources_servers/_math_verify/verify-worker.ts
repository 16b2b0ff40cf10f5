/** The worker side of pool.ts: one verification per message. */
import { mathVerify } from "./index.ts";
import { mathEqual } from "./math-equal.ts";

declare const self: { onmessage: ((e: MessageEvent) => void) | null; postMessage(m: unknown): void };
self.onmessage = (e: MessageEvent) => {
  const { id, kind, expected, generated } = e.data as { id: number; kind?: string; expected: string; generated: string };
  self.postMessage({ id, verdict: kind === "math_equal" ? mathEqual(expected, generated) : mathVerify(expected, generated) });
};

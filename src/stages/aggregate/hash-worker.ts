/**
 * Worker body: sha256 of whole files, read on its own (the page cache makes the second read cheap) so the
 * hashing runs beside the main thread's parse. Message in: { files: string[] }; out: { digests } or { error }.
 * Listed as an extra entrypoint in scripts/build.ts so the compiled binary carries it.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";

const CHUNK = 1 << 20;

function sha256(file: string, buffer: Uint8Array): string {
  const hash = createHash("sha256");
  const fd = fs.openSync(file, "r");
  try {
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, CHUNK, null);
      if (n === 0) break;
      hash.update(n === CHUNK ? buffer : buffer.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest("hex");
}

const scope = globalThis as unknown as { onmessage: ((event: MessageEvent) => void) | null; postMessage(message: unknown): void };
scope.onmessage = (event: MessageEvent) => {
  const { files } = event.data as { files: string[] };
  try {
    const buffer = new Uint8Array(CHUNK);
    scope.postMessage({ digests: files.map((f) => sha256(f, buffer)) });
  } catch (error) {
    scope.postMessage({ error: String((error as Error)?.message ?? error) });
  }
};

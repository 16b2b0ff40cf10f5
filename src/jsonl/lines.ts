/** Splits a byte stream into text lines with their line numbers, whatever the line length. */
import { readBytes } from "../runtime/files.ts";
import { invalidInChunk, invalidUtf8 } from "../text/utf8.ts";

/** One line of a text source. `terminated` is false only for a last line with no final newline. */
export interface Line {
  text: string;
  line: number;
  terminated: boolean;
}

/** Consecutive lines of one chunk: `texts[i]` is line `first + i`; only a final batch may end unterminated. */
export interface TextBatch {
  texts: string[];
  first: number;
  /** False when the last text of this batch had no final newline (the file's last line). */
  lastTerminated: boolean;
}

/**
 * Yields the lines of a file or stdin ("-") in batches (one per chunk read). CRLF endings and a UTF-8 BOM
 * are removed; blank lines are kept (callers decide). Memory: one chunk plus the current line. Batches of
 * plain strings keep the per-line cost to a loop: an async step or an object per line costs more than a parse.
 */
export async function* readTextBatches(source: string): AsyncGenerator<TextBatch> {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let pending = "";
  let next = 1;
  let first = true;
  let bytesBefore = 0;
  for await (const chunk of readBytes(source, { reuseBuffer: true })) {
    let text = decoder.decode(chunk, { stream: true });
    // A U+FFFD in the text: refused when it stands for bytes that are not UTF-8 (a literal U+FFFD passes).
    if (text.includes("\uFFFD")) {
      const at = invalidInChunk(chunk, bytesBefore > 0);
      if (at >= 0) {
        let line = next;
        for (let i = 0; i < at; i++) if (chunk[i] === 0x0a) line++;
        throw invalidUtf8(source === "-" ? "<stdin>" : source, chunk.subarray(at), 0, line, bytesBefore + at);
      }
    }
    bytesBefore += chunk.length;
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    const texts = text.split("\n");
    if (texts.length === 1) {
      pending += text;
      continue;
    }
    // The first part completes whatever the previous chunk left pending; the last one is the new pending.
    texts[0] = pending + texts[0];
    pending = texts.pop()!;
    for (let i = 0; i < texts.length; i++) {
      const t = texts[i]!;
      if (t.charCodeAt(t.length - 1) === 13) texts[i] = t.slice(0, -1);
    }
    yield { texts, first: next, lastTerminated: true };
    next += texts.length;
  }
  pending += decoder.decode();
  if (first && pending.charCodeAt(0) === 0xfeff) pending = pending.slice(1);
  if (pending.length > 0) {
    yield { texts: [pending.charCodeAt(pending.length - 1) === 13 ? pending.slice(0, -1) : pending], first: next, lastTerminated: false };
  }
}

/** The same lines as `Line` objects, a batch per chunk. */
export async function* readLineBatches(source: string): AsyncGenerator<Line[]> {
  for await (const { texts, first, lastTerminated } of readTextBatches(source)) {
    yield texts.map((text, i) => ({ text, line: first + i, terminated: lastTerminated || i < texts.length - 1 }));
  }
}

/** Yields every line of a file or stdin ("-"), one at a time (see readTextBatches). */
export async function* readLines(source: string): AsyncGenerator<Line> {
  for await (const batch of readLineBatches(source)) yield* batch;
}

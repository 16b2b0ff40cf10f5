/** Splits a byte stream into text lines with their line numbers, whatever the line length. */
import { readBytes } from "../runtime/files.ts";

/** One line of a text source. `terminated` is false only for a last line with no final newline. */
export interface Line {
  text: string;
  line: number;
  terminated: boolean;
}

/**
 * Yields the lines of a file or stdin ("-") in batches (one per chunk read), numbered from 1. CRLF endings
 * and a UTF-8 BOM are removed; blank lines are kept (callers decide). Memory: one chunk plus the current line.
 * Batches keep the per-line cost to a plain loop: an async step per line costs more than the parse itself.
 */
export async function* readLineBatches(source: string): AsyncGenerator<Line[]> {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let pending = "";
  let lineNo = 0;
  let first = true;
  for await (const chunk of readBytes(source)) {
    let text = decoder.decode(chunk, { stream: true });
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    const parts = text.split("\n");
    if (parts.length === 1) {
      pending += text;
      continue;
    }
    // The first part completes whatever the previous chunk left pending; the last one is the new pending.
    parts[0] = pending + parts[0];
    pending = parts.pop()!;
    const batch: Line[] = new Array(parts.length);
    for (let i = 0; i < parts.length; i++) batch[i] = { text: stripCr(parts[i]!), line: ++lineNo, terminated: true };
    yield batch;
  }
  pending += decoder.decode();
  if (first && pending.charCodeAt(0) === 0xfeff) pending = pending.slice(1);
  if (pending.length > 0) yield [{ text: stripCr(pending), line: ++lineNo, terminated: false }];
}

/** Yields every line of a file or stdin ("-"), one at a time (see readLineBatches). */
export async function* readLines(source: string): AsyncGenerator<Line> {
  for await (const batch of readLineBatches(source)) yield* batch;
}

function stripCr(text: string): string {
  return text.charCodeAt(text.length - 1) === 13 ? text.slice(0, -1) : text;
}

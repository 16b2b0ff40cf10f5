/** Splits a byte stream into text lines with their line numbers, whatever the line length. */
import { readBytes } from "../runtime/files.ts";

/** One line of a text source. `terminated` is false only for a last line with no final newline. */
export interface Line {
  text: string;
  line: number;
  terminated: boolean;
}

/**
 * Yields every line of a file or stdin ("-"), numbered from 1. CRLF endings and a UTF-8 BOM are
 * removed; blank lines are yielded too (callers decide). Memory holds one chunk plus the current line.
 */
export async function* readLines(source: string): AsyncGenerator<Line> {
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
    let start = 0;
    let nl = text.indexOf("\n");
    if (nl === -1) {
      pending += text;
      continue;
    }
    // The first line of this chunk completes whatever the previous chunk left pending.
    yield { text: stripCr(pending + text.slice(0, nl)), line: ++lineNo, terminated: true };
    pending = "";
    start = nl + 1;
    while ((nl = text.indexOf("\n", start)) !== -1) {
      yield { text: stripCr(text.slice(start, nl)), line: ++lineNo, terminated: true };
      start = nl + 1;
    }
    pending = text.slice(start);
  }
  pending += decoder.decode();
  if (first && pending.charCodeAt(0) === 0xfeff) pending = pending.slice(1);
  if (pending.length > 0) yield { text: stripCr(pending), line: ++lineNo, terminated: false };
}

function stripCr(text: string): string {
  return text.charCodeAt(text.length - 1) === 13 ? text.slice(0, -1) : text;
}

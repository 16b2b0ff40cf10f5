/** Strict UTF-8: text files are decoded without replacement characters; a bad byte is an error naming file, line and byte offset. */
import { GymError } from "../errors.ts";
import { readBytes } from "../runtime/files.ts";

const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** Decodes `bytes` as UTF-8 (a BOM dropped); invalid bytes throw E_INPUT_ENCODING with file:line and the byte offset. */
export function decodeUtf8(bytes: Uint8Array, file: string): string {
  try {
    return fatal.decode(bytes);
  } catch {
    const at = firstInvalidByte(bytes);
    throw invalidUtf8(file, bytes, at);
  }
}

/**
 * The error for an invalid byte at offset `at` of `bytes`: the line counted from the start of `bytes` (plus
 * `firstLine - 1`), the offset in the file (`baseOffset` is where `bytes` starts), and the byte's position
 * in its line when `bytes` starts a line (`startsLine`; a file's first byte does).
 */
export function invalidUtf8(file: string, bytes: Uint8Array, at: number, firstLine = 1, baseOffset = 0, startsLine = baseOffset === 0): GymError {
  let line = firstLine;
  let lineStart = startsLine ? 0 : -1;
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < at; i = bytes.indexOf(0x0a, i + 1)) line++, (lineStart = i + 1);
  const byte = `0x${(bytes[at] ?? 0).toString(16).padStart(2, "0")}`;
  return new GymError("E_INPUT_ENCODING", `${file}:${line}: invalid UTF-8 at byte offset ${baseOffset + at} of the file (${lineStart >= 0 ? `byte ${at - lineStart + 1} of the line: ` : "byte "}${byte})`, {
    hint: "Save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8), or delete the bad bytes; they are never replaced silently.",
  });
}

/** Refuses a NUL character in a text config (YAML forbids it; it usually means a binary or UTF-16 file). */
export function refuseNul(text: string, file: string): void {
  const at = text.indexOf("\u0000");
  if (at < 0) return;
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) line++;
  throw new GymError("E_INPUT_ENCODING", `${file}:${line}: a NUL byte (character offset ${at}); a YAML file cannot contain one.`, {
    hint: "Is it a binary or UTF-16 file? Save it as UTF-8 text without NUL characters.",
  });
}

/** Offset of the first byte that does not start (or continue) a valid UTF-8 sequence (overlong forms, surrogates and code points past U+10FFFF included); `bytes.length` when all are valid. The one UTF-8 check of the program. */
export function firstInvalidByte(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const n = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (n === 0) return i;
    if (n > 1) {
      const c1 = bytes[i + 1];
      if (c1 === undefined) return i;
      const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
      const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
      if (c1 < lo || c1 > hi) return i;
      for (let k = 2; k < n; k++) {
        const c = bytes[i + k];
        if (c === undefined || c < 0x80 || c > 0xbf) return i;
      }
    }
    i += n;
  }
  return bytes.length;
}

/**
 * Streams a file and throws E_INPUT_ENCODING (file:line, byte offset) at its first byte that is not UTF-8.
 * For readers that decode leniently on their fast path and saw a U+FFFD: a literal U+FFFD passes.
 */
export async function refuseInvalidUtf8(file: string, shown: string): Promise<void> {
  let line = 1;
  let offset = 0;
  let carry = new Uint8Array(0);
  for await (const chunk of readBytes(file, { reuseBuffer: true })) {
    const bytes = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    // Up to 3 bytes at the end may be a sequence the next chunk completes.
    let keep = 0;
    for (let k = 1; k <= Math.min(3, bytes.length); k++) {
      const b = bytes[bytes.length - k]!;
      if (b >= 0xc0) {
        const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
        if (need > k) keep = k;
        break;
      }
      if (b < 0x80) break;
    }
    const body = bytes.subarray(0, bytes.length - keep);
    const at = firstInvalidByte(body);
    if (at < body.length) throw invalidUtf8(shown, body, at, line, offset);
    for (let i = 0; i < body.length; i++) if (body[i] === 0x0a) line++;
    offset += body.length;
    carry = bytes.slice(bytes.length - keep);
  }
  if (carry.length) throw invalidUtf8(shown, carry, 0, line, offset);
}

/**
 * Where the first invalid UTF-8 sequence of one chunk of a stream starts, or -1. `midSequence`: the chunk may
 * begin with the continuation bytes of a sequence the previous chunk started; a sequence cut off by the end of
 * the chunk is not an error (the next chunk completes it).
 */
export function invalidInChunk(chunk: Uint8Array, midSequence: boolean): number {
  let s = 0;
  if (midSequence) while (s < 3 && s < chunk.length && chunk[s]! >= 0x80 && chunk[s]! <= 0xbf) s++;
  const body = chunk.subarray(s);
  const at = firstInvalidByte(body);
  if (at >= body.length) return -1;
  const b = body[at]!;
  const need = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xc2 && b <= 0xdf ? 2 : 0;
  if (need > 0 && at + need > body.length && body.subarray(at + 1).every((c) => c >= 0x80 && c <= 0xbf)) return -1;
  return s + at;
}

/**
 * Python's `bytes.decode("utf-8", errors="ignore")`: every byte of an invalid sequence is dropped, a literal
 * U+FFFD in the text is kept. (Dropping byte by byte equals dropping maximal subparts: the bytes after a
 * subpart's first are continuation bytes, which never start a sequence.)
 */
export function decodeUtf8IgnoringErrors(bytes: Uint8Array): string {
  let text = "";
  let rest = bytes;
  for (let at = firstInvalidByte(rest); at < rest.length; at = firstInvalidByte(rest)) {
    text += fatal.decode(rest.subarray(0, at));
    rest = rest.subarray(at + 1);
  }
  return text + fatal.decode(rest);
}

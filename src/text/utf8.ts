/** Strict UTF-8: text files are decoded without replacement characters; a bad byte is an error naming file, line and byte offset. */
import { GymError } from "../errors.ts";

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

/** The error for an invalid byte at offset `at` of `bytes` (the line counted from the start of `bytes`, plus `firstLine - 1`). */
export function invalidUtf8(file: string, bytes: Uint8Array, at: number, firstLine = 1, baseOffset = 0): GymError {
  let line = firstLine;
  for (let i = 0; i < at; i++) if (bytes[i] === 0x0a) line++;
  const hex = Array.from(bytes.subarray(at, Math.min(at + 4, bytes.length)), (b) => b.toString(16).padStart(2, "0")).join(" ");
  return new GymError("E_INPUT_ENCODING", `${file}:${line}: invalid UTF-8 at byte offset ${baseOffset + at} (bytes ${hex}).`, {
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

/** Offset of the first byte that does not start (or continue) a valid UTF-8 sequence. */
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

/** Python `repr()` of strings, bytes and exceptions: Gym's 500 bodies and some tool outputs embed them verbatim. */

/** `repr(str)`: single quotes unless the text has a single quote and no double quote. */
export function pythonStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + quote;
}

/** `repr(bytes)` of UTF-8 text, e.g. `b'{"detail":"Not Found"}'` (non-ASCII bytes as `\xNN`). */
export function pythonBytesRepr(text: string): string {
  const bytes = new TextEncoder().encode(text);
  const hasSingle = bytes.includes(0x27);
  const quote = hasSingle && !bytes.includes(0x22) ? '"' : "'";
  let out = `b${quote}`;
  for (const b of bytes) {
    if (b === 0x5c) out += "\\\\";
    else if (b === quote.charCodeAt(0)) out += `\\${quote}`;
    else if (b === 0x0a) out += "\\n";
    else if (b === 0x0d) out += "\\r";
    else if (b === 0x09) out += "\\t";
    else if (b < 0x20 || b >= 0x7f) out += `\\x${b.toString(16).padStart(2, "0")}`;
    else out += String.fromCharCode(b);
  }
  return out + quote;
}

/** `repr(exception)`: `Name('message')`; JS `Error` is reported as Python's `Exception`. */
export function pythonExceptionRepr(error: unknown): string {
  if (!(error instanceof Error)) return `Exception(${pythonStrRepr(String(error))})`;
  const name = error.name === "Error" || error.name === "GymError" ? "Exception" : error.name;
  return `${name}(${pythonStrRepr(error.message)})`;
}

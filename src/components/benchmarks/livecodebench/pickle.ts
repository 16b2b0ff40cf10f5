/**
 * A small reader for Python pickles of plain data (str, bytes, int, float, bool, None, list, tuple, dict), protocols
 * 0–5: enough for LiveCodeBench's private tests, stored as base64 → zlib → pickle of a JSON string. No npm pickle
 * reader is kept up; this one refuses (with the opcode) anything that would build an object (GLOBAL, REDUCE, …).
 */
import { inflateSync } from "node:zlib";

const MARK = Symbol("mark");

/** Reads one pickle and returns its value. */
export function unpickle(bytes: Uint8Array): unknown {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder();
  const stack: unknown[] = [];
  const memo: unknown[] = [];
  let pos = 0;
  const take = (n: number) => {
    if (pos + n > bytes.length) throw new Error("pickle: truncated");
    const out = bytes.subarray(pos, pos + n);
    pos += n;
    return out;
  };
  const latin1 = new TextDecoder("latin1");
  const line = (as = decoder) => {
    const end = bytes.indexOf(0x0a, pos);
    if (end < 0) throw new Error("pickle: truncated line");
    const text = as.decode(bytes.subarray(pos, end));
    pos = end + 1;
    return text;
  };
  const u32 = () => (pos += 4, view.getUint32(pos - 4, true));
  const popMark = () => {
    const at = stack.lastIndexOf(MARK);
    if (at < 0) throw new Error("pickle: no mark");
    const items = stack.splice(at);
    items.shift();
    return items;
  };
  for (;;) {
    const op = bytes[pos++];
    switch (op) {
      case 0x80: pos++; break; // PROTO n
      case 0x95: pos += 8; break; // FRAME length
      case 0x2e: return stack.pop(); // STOP
      case 0x8c: stack.push(decoder.decode(take(bytes[pos++]!))); break; // SHORT_BINUNICODE
      case 0x58: stack.push(decoder.decode(take(u32()))); break; // BINUNICODE
      case 0x8d: { const n = Number(view.getBigUint64(pos, true)); pos += 8; stack.push(decoder.decode(take(n))); break; } // BINUNICODE8
      case 0x56: stack.push(rawUnicodeEscape(line(latin1))); break; // UNICODE (protocol 0)
      case 0x43: stack.push(take(bytes[pos++]!).slice()); break; // SHORT_BINBYTES
      case 0x42: stack.push(take(u32()).slice()); break; // BINBYTES
      case 0x4e: stack.push(null); break; // NONE
      case 0x88: stack.push(true); break; // NEWTRUE
      case 0x89: stack.push(false); break; // NEWFALSE
      case 0x4b: stack.push(bytes[pos++]); break; // BININT1
      case 0x4d: stack.push(view.getUint16((pos += 2) - 2, true)); break; // BININT2
      case 0x4a: stack.push(view.getInt32((pos += 4) - 4, true)); break; // BININT
      case 0x47: stack.push(view.getFloat64((pos += 8) - 8, false)); break; // BINFLOAT
      case 0x49: { const t = line(); stack.push(t === "01" ? true : t === "00" ? false : Number(t)); break; } // INT
      case 0x46: stack.push(Number(line())); break; // FLOAT
      case 0x5d: stack.push([]); break; // EMPTY_LIST
      case 0x29: stack.push([]); break; // EMPTY_TUPLE
      case 0x7d: stack.push({}); break; // EMPTY_DICT
      case 0x28: stack.push(MARK); break; // MARK
      case 0x6c: stack.push(popMark()); break; // LIST
      case 0x74: stack.push(popMark()); break; // TUPLE
      case 0x85: stack.push(stack.splice(-1)); break; // TUPLE1
      case 0x86: stack.push(stack.splice(-2)); break; // TUPLE2
      case 0x87: stack.push(stack.splice(-3)); break; // TUPLE3
      case 0x61: { const v = stack.pop(); (stack[stack.length - 1] as unknown[]).push(v); break; } // APPEND
      case 0x65: { const items = popMark(); (stack[stack.length - 1] as unknown[]).push(...items); break; } // APPENDS
      case 0x73: { const v = stack.pop(); const k = stack.pop(); (stack[stack.length - 1] as Record<string, unknown>)[String(k)] = v; break; } // SETITEM
      case 0x75: { const items = popMark(); const d = stack[stack.length - 1] as Record<string, unknown>; for (let i = 0; i < items.length; i += 2) d[String(items[i])] = items[i + 1]; break; } // SETITEMS
      case 0x94: memo.push(stack[stack.length - 1]); break; // MEMOIZE
      case 0x71: memo[bytes[pos++]!] = stack[stack.length - 1]; break; // BINPUT
      case 0x72: memo[u32()] = stack[stack.length - 1]; break; // LONG_BINPUT
      case 0x70: memo[Number(line())] = stack[stack.length - 1]; break; // PUT
      case 0x68: stack.push(memo[bytes[pos++]!]); break; // BINGET
      case 0x6a: stack.push(memo[u32()]); break; // LONG_BINGET
      case 0x67: stack.push(memo[Number(line())]); break; // GET
      default:
        throw new Error(`pickle: unsupported opcode 0x${(op ?? 0).toString(16)} at byte ${pos - 1} (only plain data is read)`);
    }
  }
}

/** Protocol 0's raw-unicode-escape: \uXXXX and \UXXXXXXXX escapes, every other byte Latin-1. */
function rawUnicodeEscape(text: string): string {
  return text.replace(/\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})/g, (_, four, eight) => String.fromCodePoint(parseInt(four ?? eight, 16)));
}

/** LiveCodeBench's test cases: plain JSON, or base64 → zlib → pickle of a JSON string (its private tests). */
export function decodeTestCases(raw: unknown): { input: string; output: string }[] {
  if (!raw) return [];
  if (typeof raw !== "string") throw new Error("test cases must be a string");
  try {
    return JSON.parse(raw);
  } catch {
    const value = unpickle(inflateSync(Buffer.from(raw, "base64")));
    if (typeof value !== "string") throw new Error("the private test cases' pickle does not hold a JSON string");
    return JSON.parse(value);
  }
}

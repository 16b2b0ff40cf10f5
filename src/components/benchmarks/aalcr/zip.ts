/** The files of a ZIP archive (stored or deflated entries), read from its central directory. */
import { inflateRawSync } from "node:zlib";
import { GymError } from "../../../errors.ts";

export function zipEntries(bytes: Uint8Array, label: string): { name: string; data: Uint8Array }[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  const bad = (what: string) => new GymError("E_INPUT_SCHEMA", `${label} is not a ZIP archive gym can read (${what}).`, { hint: `Delete the cached copy and prepare again.` });
  if (end < 0) throw bad("no end of central directory");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const decoder = new TextDecoder();
  const out: { name: string; data: Uint8Array }[] = [];
  for (let n = 0; n < count; n++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw bad(`central directory entry ${n + 1}`);
    const method = view.getUint16(at + 10, true);
    const compressed = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith("/")) continue;
    if (view.getUint32(local, true) !== 0x04034b50) throw bad(`local header of ${name}`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const raw = bytes.subarray(start, start + compressed);
    if (method === 0) out.push({ name, data: raw });
    else if (method === 8) out.push({ name, data: inflateRawSync(raw) });
    else throw bad(`${name} uses compression method ${method}`);
  }
  return out;
}

/** `bytes.decode("utf-8", errors="ignore")`: invalid sequences dropped (a lossless decode when the bytes are valid). */
export function decodeIgnoringErrors(data: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    return new TextDecoder("utf-8").decode(data).replaceAll("\uFFFD", "");
  }
}

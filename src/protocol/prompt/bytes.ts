/**
 * The prompt digests of `digest.ts` taken from a row's bytes: the `input` value (valid JSON, UTF-8)
 * is walked where it lies, its strings hashed as the UTF-16 code units JSON.parse would give, nothing
 * decoded or built. What the walk does not cover (an item that is not an object, a key or a `type` spelled
 * with escapes, an input that is neither a list, a string nor null) it leaves to the caller
 * (`PROMPT_FALLBACK`), who parses the value and digests it with `promptDigest`: the same digests.
 */
import { parseSpan, type Span } from "../../jsonl/rows.ts";
import { answersPrompt, type Prompt, PromptHash } from "./digest.ts";

/** `digestPromptBytes` results beside an item count: no prompt (null), or a value for `promptDigest`. */
export const NO_PROMPT = -2;
export const PROMPT_FALLBACK = -3;

/** A growing list of digests (numbers), appended to without a per-row array. */
export class DigestList {
  values = new Float64Array(1024);
  length = 0;

  push(v: number): void {
    if (this.length === this.values.length) {
      const more = new Float64Array(this.values.length * 2);
      more.set(this.values);
      this.values = more;
    }
    this.values[this.length++] = v;
  }
}

const h = new PromptHash();

/** Item members the digest reads, by their first byte and length. */
const TYPE = 1;
const ROLE = 2;
const CONTENT = 3;
const NAME = 4;
const ARGUMENTS = 5;
const OUTPUT = 6;
const CALL_ID = 7;
const TEXT = 8;
const IMAGE_URL = 9;
const KEYS: [string, number][] = [
  ["type", TYPE],
  ["role", ROLE],
  ["content", CONTENT],
  ["name", NAME],
  ["arguments", ARGUMENTS],
  ["output", OUTPUT],
  ["call_id", CALL_ID],
  ["text", TEXT],
  ["image_url", IMAGE_URL],
];
const KEY_BYTES = KEYS.map(([k, id]) => ({ bytes: Uint8Array.from(k, (c) => c.charCodeAt(0)), id }));
const MESSAGE = Uint8Array.from("message", (c) => c.charCodeAt(0));

/** Tags hashed before each field (as `PromptHash.add` does), as code units. */
const units = (text: string) => Array.from(text, (c) => c.charCodeAt(0));
const TAG = { k: units("k"), r: units("r"), c: units("c"), p: units("p"), s: units("s"), name: units("name"), arguments: units("arguments"), output: units("output"), call_id: units("call_id") };

/**
 * Digests the prompt whose value starts at `b[at]`. For a list: appends the digest of each prefix (0, 1, …
 * n items) to `out` and returns n. For a string: appends its one digest and returns -1. Returns NO_PROMPT
 * for null and PROMPT_FALLBACK for anything the walk leaves to `promptDigest` (nothing appended then).
 */
export function digestPromptBytes(b: Uint8Array, at: number, out: DigestList): number {
  const c = b[at];
  h.reset();
  if (c === 110) return NO_PROMPT;
  if (c === 34) {
    tag(TAG.s);
    stringUnits(b, at);
    h.unit(1);
    out.push(h.value());
    return -1;
  }
  if (c !== 91) return PROMPT_FALLBACK;
  const mark = out.length;
  out.push(h.value());
  let i = ws(b, at + 1);
  if (b[i] === 93) return 0;
  let items = 0;
  for (;;) {
    if (b[i] !== 123) return (out.length = mark), PROMPT_FALLBACK;
    i = item(b, i);
    if (i < 0) return (out.length = mark), PROMPT_FALLBACK;
    items++;
    out.push(h.value());
    i = ws(b, i);
    if (b[i] === 93) return items;
    i = ws(b, i + 1); // the comma
  }
}

/** Where each member of the item being walked starts (its value), 0 when absent; the last one wins, as in JSON.parse. */
const where = new Int32Array(10);

/** Hashes the item object at `i` (as `addItem` does); returns the index past it, or -1 to fall back. */
function item(b: Uint8Array, i: number): number {
  where.fill(0);
  const end = members(b, i, where);
  if (end < 0) return -1;
  // kind: the type string unless it is "message" (or not a string)
  tag(TAG.k);
  const t = where[TYPE]!;
  // ("m\u0065ssage" hashes as the units of "message": the same kind)
  if (t > 0 && b[t] === 34 && !isMessage(b, t)) stringUnits(b, t);
  else mixAscii(MESSAGE);
  h.unit(1);
  field(b, where[ROLE]!, TAG.r);
  const content = where[CONTENT]!;
  if (content > 0 && b[content] === 34) field(b, content, TAG.c);
  else if (content > 0 && b[content] === 91) {
    if (parts(b, content) < 0) return -1;
  }
  field(b, where[NAME]!, TAG.name);
  field(b, where[ARGUMENTS]!, TAG.arguments);
  field(b, where[OUTPUT]!, TAG.output);
  field(b, where[CALL_ID]!, TAG.call_id);
  return end;
}

const partSlots = new Int32Array(10);

/** Hashes the content parts list at `i`: each part's text, else its image_url, else "". */
function parts(b: Uint8Array, i: number): number {
  i = ws(b, i + 1);
  if (b[i] === 93) return i + 1;
  const part = partSlots;
  for (;;) {
    tag(TAG.p);
    if (b[i] === 123) {
      part.fill(0);
      const end = members(b, i, part);
      if (end < 0) return -1;
      const text = part[TEXT]! > 0 && b[part[TEXT]!] === 34 ? part[TEXT]! : part[IMAGE_URL]! > 0 && b[part[IMAGE_URL]!] === 34 ? part[IMAGE_URL]! : 0;
      if (text > 0) stringUnits(b, text);
      i = end;
    } else i = skip(b, i);
    h.unit(1);
    i = ws(b, i);
    if (b[i] === 93) return i + 1;
    i = ws(b, i + 1);
  }
}

/** Hashes a string member (tag, 0, text, 1) when it is a string. */
function field(b: Uint8Array, at: number, t: number[]): void {
  if (at === 0 || b[at] !== 34) return;
  tag(t);
  stringUnits(b, at);
  h.unit(1);
}

function tag(t: number[]): void {
  for (let k = 0; k < t.length; k++) h.unit(t[k]!);
  h.unit(0);
}

function mixAscii(bytes: Uint8Array): void {
  for (let k = 0; k < bytes.length; k++) h.unit(bytes[k]!);
}

/** Whether the string at `at` is exactly "message" (spelled without escapes). */
function isMessage(b: Uint8Array, at: number): boolean {
  for (let k = 0; k < 7; k++) if (b[at + 1 + k] !== MESSAGE[k]) return false;
  return b[at + 8] === 34;
}

/**
 * Walks the object at `i`, noting in `slots` where the value of each known key starts; returns the index past
 * it, or -1 for a key spelled with an escape (its name is not its bytes).
 */
function members(b: Uint8Array, i: number, slots: Int32Array): number {
  i = ws(b, i + 1);
  if (b[i] === 125) return i + 1;
  for (;;) {
    // b[i] is the key's quote
    const from = i + 1;
    let j = from;
    while (b[j] !== 34) {
      if (b[j] === 92) return -1;
      j++;
    }
    const id = keyId(b, from, j - from);
    i = ws(b, ws(b, j + 1) + 1); // past the colon
    if (id > 0) slots[id] = i;
    i = ws(b, skip(b, i));
    if (b[i] === 125) return i + 1;
    i = ws(b, i + 1);
  }
}

function keyId(b: Uint8Array, from: number, n: number): number {
  for (let k = 0; k < KEY_BYTES.length; k++) {
    const key = KEY_BYTES[k]!.bytes;
    if (key.length !== n || key[0] !== b[from]) continue;
    let same = true;
    for (let x = 1; x < n; x++) if (key[x] !== b[from + x]) (same = false), (x = n);
    if (same) return KEY_BYTES[k]!.id;
  }
  return 0;
}

function ws(b: Uint8Array, i: number): number {
  let c = b[i];
  while (c === 32 || c === 9 || c === 13 || c === 10) c = b[++i];
  return i;
}

/** The index past the (valid) JSON value at `i`. */
function skip(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c === 34) return stringEnd(b, i);
  if (c !== 123 && c !== 91) {
    while (i < b.length) {
      const d = b[i]!;
      if (d === 44 || d === 125 || d === 93 || d === 32 || d === 9 || d === 13 || d === 10) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  for (;;) {
    const d = b[i];
    if (d === 34) {
      i = stringEnd(b, i);
      continue;
    }
    if (d === 123 || d === 91) depth++;
    else if (d === 125 || d === 93) {
      if (--depth === 0) return i + 1;
    } else if (d === undefined) return i;
    i++;
  }
}

/** The index past the (valid) string at `i`: the next quote not escaped, found natively. */
function stringEnd(b: Uint8Array, i: number): number {
  for (;;) {
    const q = b.indexOf(34, i + 1);
    if (q < 0) return b.length;
    let k = q - 1;
    while (b[k] === 92) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    i = q;
  }
}

const HEX_VALUE = new Int8Array(256).fill(-1);
for (let d = 0; d < 16; d++) HEX_VALUE["0123456789abcdef".charCodeAt(d)] = HEX_VALUE["0123456789ABCDEF".charCodeAt(d)] = d;
const ESCAPED = new Int32Array(256).fill(-1);
for (const [e, v] of [["n", 10], ["t", 9], ["r", 13], ["b", 8], ["f", 12], ["/", 47], ["\\", 92], ['"', 34]] as const) ESCAPED[e.charCodeAt(0)] = v;

/** Hashes the code units of the (valid) string at `at`, as JSON.parse decodes it. */
function stringUnits(b: Uint8Array, at: number): void {
  let h1 = h.h1;
  let h2 = h.h2;
  let i = at + 1;
  for (;;) {
    let c = b[i]!;
    if (c === 34) break;
    if (c === 92) {
      const e = b[i + 1]!;
      if (e === 117) {
        c = (HEX_VALUE[b[i + 2]!]! << 12) | (HEX_VALUE[b[i + 3]!]! << 8) | (HEX_VALUE[b[i + 4]!]! << 4) | HEX_VALUE[b[i + 5]!]!;
        i += 6;
      } else {
        c = ESCAPED[e]!;
        i += 2;
      }
    } else if (c < 0x80) i++;
    else if (c < 0xe0) {
      c = ((c & 0x1f) << 6) | (b[i + 1]! & 0x3f);
      i += 2;
    } else if (c < 0xf0) {
      c = ((c & 0x0f) << 12) | ((b[i + 1]! & 0x3f) << 6) | (b[i + 2]! & 0x3f);
      i += 3;
    } else {
      const cp = (((c & 0x07) << 18) | ((b[i + 1]! & 0x3f) << 12) | ((b[i + 2]! & 0x3f) << 6) | (b[i + 3]! & 0x3f)) - 0x10000;
      i += 4;
      const hi = 0xd800 + (cp >> 10);
      h1 = Math.imul(h1 ^ hi, 2654435761);
      h2 = Math.imul(h2 ^ hi, 1597334677);
      c = 0xdc00 + (cp & 0x3ff);
    }
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h.h1 = h1;
  h.h2 = h2;
}

const scratch = new DigestList();

/**
 * Whether the prompt whose bytes are `span` of `bytes` answers an input row's `prompt` (the same prompt, or
 * that prompt's items first: see `answersPrompt`); a rollout without a prompt (null) answers any.
 */
export function answersPromptBytes(prompt: Prompt, bytes: Uint8Array, span: Span): boolean {
  scratch.length = 0;
  const items = digestPromptBytes(bytes, span.start, scratch);
  if (items === NO_PROMPT) return true;
  if (items === PROMPT_FALLBACK) {
    const value = parseSpan(bytes, span);
    return value === null || answersPrompt(prompt, value);
  }
  if (prompt.items < 0 || items < 0) return prompt.items === items && scratch.values[0] === prompt.digest;
  return prompt.items <= items && scratch.values[prompt.items] === prompt.digest;
}

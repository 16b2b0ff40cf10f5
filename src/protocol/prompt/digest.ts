/**
 * A digest of a prompt (`responses_create_params.input`) that survives the run's echo of it: a rollout row
 * holds the create params as the agent dumped them (defaults filled in, `"type": "message"` added, keys
 * reordered), its materialized input holds them as the dataset wrote them. Both give the same digest: it
 * covers each item's role and text (string content, or the `text` of its content parts) and, for other item
 * kinds (tool calls and their outputs), the kind and its arguments or output. Used to check that a rollout
 * and the input row it is joined with belong to the same task.
 *
 * A multi-turn environment (NeMo Gym's gymnasium agents) appends the turns it played to the rollout's
 * `input`: a rollout answers its input row when the input row's items are the first items of its own, so
 * a digest can be taken of a prompt's first n items (`promptDigest(input, n)`). `bytes.ts` takes
 * the same digests from a row's bytes, without parsing it.
 */

/** What a joined rollout is checked against: the input row's item count (-1: not a list) and digest. */
export interface Prompt {
  items: number;
  digest: number;
}

/** The prompt of an input, or undefined when there is none (no input at all). */
export function promptOf(input: unknown): Prompt | undefined {
  const digest = promptDigest(input);
  return digest === undefined ? undefined : { items: Array.isArray(input) ? input.length : -1, digest };
}

/**
 * The digest of a prompt, or undefined when there is none (no input at all); with `items`, of its first
 * `items` items (undefined when it is not a list or holds fewer).
 */
export function promptDigest(input: unknown, items?: number): number | undefined {
  if (input === undefined || input === null) return undefined;
  const h = new PromptHash();
  if (Array.isArray(input)) {
    const n = items ?? input.length;
    if (n > input.length) return undefined;
    for (let i = 0; i < n; i++) addItem(h, input[i]);
    return h.value();
  }
  if (items !== undefined) return undefined;
  if (typeof input === "string") h.add("s", input);
  else h.add("o", JSON.stringify(input));
  return h.value();
}

/** Whether a rollout's prompt answers its input row's (the same items, or those items first). */
export function answersPrompt(prompt: Prompt, input: unknown): boolean {
  return promptDigest(input, prompt.items < 0 ? undefined : prompt.items) === prompt.digest && (prompt.items < 0) === !Array.isArray(input);
}

function addItem(h: PromptHash, item: unknown): void {
  if (item === null || typeof item !== "object") return h.add("v", String(item));
  const it = item as Record<string, unknown>;
  const kind = typeof it.type === "string" && it.type !== "message" ? it.type : "message";
  h.add("k", kind);
  if (typeof it.role === "string") h.add("r", it.role);
  const content = it.content;
  if (typeof content === "string") h.add("c", content);
  else if (Array.isArray(content)) for (const part of content) h.add("p", typeof part?.text === "string" ? part.text : typeof part?.image_url === "string" ? part.image_url : "");
  for (const field of ITEM_FIELDS) if (typeof it[field] === "string") h.add(field, it[field] as string);
}

/** The string fields of an item hashed after its content, in this order. */
export const ITEM_FIELDS = ["name", "arguments", "output", "call_id"] as const;

/** The prompt of a row (its `responses_create_params.input`). */
export function rowPrompt(row: Record<string, unknown>): Prompt | undefined {
  return promptOf(rowInput(row));
}

/** A row's `responses_create_params.input` (undefined without create params). */
export function rowInput(row: Record<string, unknown>): unknown {
  const params = row.responses_create_params;
  return params !== null && typeof params === "object" && !Array.isArray(params) ? (params as Record<string, unknown>).input : undefined;
}

/**
 * cyrb53 over UTF-16 code units: a fast 53-bit hash (not cryptographic: it tells different prompts apart, it
 * guards nothing). Each field is its tag, a 0, its text and a 1; `value()` leaves the state as it is.
 */
export class PromptHash {
  // As int32 (the same bits): a field that flips between a double and an int on every reset is slow.
  h1 = 0xdeadbeef | 0;
  h2 = 0x41c6ce57;

  add(tag: string, text: string): void {
    this.mix(tag);
    this.unit(0);
    this.mix(text);
    this.unit(1);
  }

  /** Mixes one code unit. */
  unit(c: number): void {
    this.h1 = Math.imul(this.h1 ^ c, 2654435761);
    this.h2 = Math.imul(this.h2 ^ c, 1597334677);
  }

  mix(text: string): void {
    let { h1, h2 } = this;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    this.h1 = h1;
    this.h2 = h2;
  }

  value(): number {
    let { h1, h2 } = this;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return 4294967296 * (2097151 & h2) + (h1 >>> 0);
  }

  reset(): void {
    this.h1 = 0xdeadbeef | 0;
    this.h2 = 0x41c6ce57;
  }
}

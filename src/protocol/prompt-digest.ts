/**
 * A digest of a prompt (`responses_create_params.input`) that survives the run's echo of it: a rollout row
 * holds the create params as the agent dumped them (defaults filled in, `"type": "message"` added, keys
 * reordered), its materialized input holds them as the dataset wrote them. Both give the same digest: it
 * covers each item's role and text (string content, or the `text` of its content parts) and, for other item
 * kinds (tool calls and their outputs), the kind and its arguments or output. Used to check that a rollout
 * and the input row it is joined with belong to the same task.
 */

/** The digest of a prompt, or undefined when there is none (no input at all). */
export function promptDigest(input: unknown): number | undefined {
  if (input === undefined || input === null) return undefined;
  const h = new Hash();
  if (typeof input === "string") h.add("s", input);
  else if (Array.isArray(input)) {
    for (const item of input) {
      if (item === null || typeof item !== "object") {
        h.add("v", String(item));
        continue;
      }
      const it = item as Record<string, unknown>;
      const kind = typeof it.type === "string" && it.type !== "message" ? it.type : "message";
      h.add("k", kind);
      if (typeof it.role === "string") h.add("r", it.role);
      const content = it.content;
      if (typeof content === "string") h.add("c", content);
      else if (Array.isArray(content)) for (const part of content) h.add("p", typeof part?.text === "string" ? part.text : typeof part?.image_url === "string" ? part.image_url : "");
      for (const field of ["name", "arguments", "output", "call_id"]) if (typeof it[field] === "string") h.add(field, it[field] as string);
    }
  } else h.add("o", JSON.stringify(input));
  return h.value();
}

/** The digest of a row's prompt (its `responses_create_params.input`). */
export function rowPromptDigest(row: Record<string, unknown>): number | undefined {
  const params = row.responses_create_params;
  return params !== null && typeof params === "object" && !Array.isArray(params) ? promptDigest((params as Record<string, unknown>).input) : undefined;
}

/** cyrb53: a fast 53-bit string hash (not cryptographic: it tells different prompts apart, it guards nothing). */
class Hash {
  private h1 = 0xdeadbeef;
  private h2 = 0x41c6ce57;

  add(tag: string, text: string): void {
    this.mix(tag);
    this.mix("\u0000");
    this.mix(text);
    this.mix("\u0001");
  }

  private mix(text: string): void {
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
}

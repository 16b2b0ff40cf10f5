/** Canonical JSON and SHA-256 digests: sorted keys, compact, non-ASCII kept — one function for every digest. */
import { createHash } from "node:crypto";

/**
 * JSON with object keys sorted at every depth and no spaces (Python's sort_keys=True, separators=(",", ":")).
 * NaN and ±Infinity are written as Python's json.dumps writes them (NaN, Infinity, -Infinity), so they never
 * collide with null. The one canonical form of the program: digests, cache keys and dataset plans use it.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
    return JSON.stringify(value) ?? "null";
  }
  // Built by concatenation (no arrays of parts): the same text as mapping and joining, holes included.
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i) out += ",";
      if (i in value) out += canonicalJson(value[i]);
    }
    return `${out}]`;
  }
  const keys = Object.keys(value).sort();
  let out = "{";
  for (const key of keys) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    if (out.length > 1) out += ",";
    out += `${JSON.stringify(key)}:${canonicalJson(v)}`;
  }
  return `${out}}`;
}

/**
 * `canonicalJson` for many rows, with each top-level value that rows share (by identity: a task's repeats) made
 * once; the text is the same.
 */
export function sharedCanonicalJson(): (row: unknown) => string {
  const memo = new Map<object, string>();
  return (row) => {
    if (row === null || typeof row !== "object" || Array.isArray(row)) return canonicalJson(row);
    let out = "{";
    for (const key of Object.keys(row).sort()) {
      const v = (row as Record<string, unknown>)[key];
      if (v === undefined) continue;
      let text: string | undefined = typeof v === "object" && v !== null ? memo.get(v) : undefined;
      if (text === undefined) {
        text = canonicalJson(v);
        if (typeof v === "object" && v !== null) memo.set(v, text);
      }
      if (out.length > 1) out += ",";
      out += `${JSON.stringify(key)}:${text}`;
    }
    return `${out}}`;
  };
}

export function sha256(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Incremental SHA-256 of many pieces (e.g. materialized rows, one at a time). */
export function digestBuilder() {
  const hash = createHash("sha256");
  return {
    add(text: string) {
      hash.update(text);
    },
    hex: () => hash.digest("hex"),
  };
}

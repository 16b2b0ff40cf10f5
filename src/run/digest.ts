/** Canonical JSON and SHA-256 digests: sorted keys, compact, non-ASCII kept — one function for every digest. */
import { createHash } from "node:crypto";

/** JSON with object keys sorted at every depth and no spaces (Python's sort_keys=True, separators=(",", ":")). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) throw new RangeError("NaN and Infinity have no canonical JSON form");
    return JSON.stringify(value) ?? "null";
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  const parts: string[] = [];
  for (const key of keys) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${canonicalJson(v)}`);
  }
  return `{${parts.join(",")}}`;
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

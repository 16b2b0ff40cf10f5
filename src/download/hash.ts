/** Integrity checks of downloaded bytes: sha256 (LFS oids, explicit digests) and git blob sha1 (ETags of small Hub files). */
import { createHash, type Hash } from "node:crypto";

/** What the bytes must hash to: a sha256 hex digest, or the git blob id (sha1 of "blob <size>\0" + bytes). */
export type ExpectedHash = { algorithm: "sha256"; hex: string } | { algorithm: "git-sha1"; hex: string };

/** An incremental hasher for one expected digest; git-sha1 needs the final size up front (its header). */
export class ContentHasher {
  readonly expected: ExpectedHash;
  private hash: Hash;

  constructor(expected: ExpectedHash, size: number | undefined) {
    this.expected = expected;
    this.hash = createHash(expected.algorithm === "sha256" ? "sha256" : "sha1");
    if (expected.algorithm === "git-sha1") this.hash.update(`blob ${size ?? 0}\0`);
  }

  update(bytes: Uint8Array): void {
    this.hash.update(bytes);
  }

  /** The actual hex digest; compare with `expected.hex`. */
  digest(): string {
    return this.hash.digest("hex");
  }
}

/**
 * The hash a Hugging Face resolve answer announces: X-Linked-Etag (LFS, a sha256) or ETag (a git blob sha1).
 * Weak or other-shaped ETags (CDNs, proxies) announce nothing checkable.
 */
export function hashFromEtag(etag: string | null | undefined): ExpectedHash | undefined {
  if (!etag || etag.startsWith("W/")) return undefined;
  const hex = etag.replace(/^"|"$/g, "").toLowerCase();
  if (/^[0-9a-f]{64}$/.test(hex)) return { algorithm: "sha256", hex };
  if (/^[0-9a-f]{40}$/.test(hex)) return { algorithm: "git-sha1", hex };
  return undefined;
}

import { describe, expect, test } from "bun:test";
import { accountFingerprint, cacheKey, canonicalBody, requestHash } from "./key.ts";

const body = { model: "m", input: [{ role: "user", content: "hi" }], temperature: 1, max_output_tokens: 64 };
const identity = (over: Partial<{ url: string; model: string; account: string; body: unknown }> = {}) =>
  requestHash({ url: over.url ?? "http://h/v1/responses", model: over.model ?? "m", account: over.account ?? "", body: canonicalBody(over.body ?? body) });

describe("cache key derivation", () => {
  test("key order and transport-only fields do not change it", () => {
    const reordered = { max_output_tokens: 64, temperature: 1, input: [{ content: "hi", role: "user" }], model: "m" };
    expect(identity({ body: reordered })).toBe(identity());
    expect(identity({ body: { ...body, timeout: 30, request_timeout: 5, max_retries: 2, request_id: "r-1", extra_headers: { a: "b" } } })).toBe(identity());
  });

  test("the prompt, a sampling parameter, tools, the endpoint, the model and the account do", () => {
    const base = identity();
    const changed = [
      identity({ body: { ...body, input: [{ role: "user", content: "hi!" }] } }),
      identity({ body: { ...body, temperature: 0.7 } }),
      identity({ body: { ...body, top_p: 0.9 } }),
      identity({ body: { ...body, tools: [{ type: "function", name: "f" }] } }),
      identity({ body: { ...body, input: [{ content: "hi" }, { role: "user" }] } }),
      identity({ url: "http://other/v1/responses" }),
      identity({ url: "http://h/v1/chat/completions" }),
      identity({ model: "m2" }),
      identity({ account: "abc" }),
    ];
    expect(new Set([base, ...changed]).size).toBe(changed.length + 1);
  });

  test("the repeat index and the position of identical calls within a rollout do", () => {
    const request = identity();
    const keys = [cacheKey(request, "0", 0), cacheKey(request, "1", 0), cacheKey(request, "0", 1), cacheKey(request, "-", 0)];
    expect(new Set(keys).size).toBe(4);
    expect(cacheKey(request, "2", 0)).toBe(cacheKey(request, "2", 0));
  });

  test("the account fingerprint is an HMAC: the key is not in it, tracing headers do not change it", () => {
    const secret = "s".repeat(64);
    const a = accountFingerprint(secret, "sk-abc", { "OpenAI-Organization": "org-1", traceparent: "00-1" });
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toContain("sk-abc");
    expect(accountFingerprint(secret, "sk-abc", { "openai-organization": "org-1", "x-request-id": "9" })).toBe(a);
    expect(accountFingerprint(secret, "sk-abd", { "OpenAI-Organization": "org-1" })).not.toBe(a);
    expect(accountFingerprint(secret, "sk-abc", { "OpenAI-Organization": "org-2" })).not.toBe(a);
    expect(accountFingerprint("t".repeat(64), "sk-abc", { "OpenAI-Organization": "org-1" })).not.toBe(a);
    expect(accountFingerprint(secret, undefined, { authorization: "Bearer x" })).toBe("");
  });
});

describe("parseDuration", () => {
  test("units s m h d w, a bare number is seconds; anything else is refused naming the flag", async () => {
    const { parseDuration } = await import("./duration.ts");
    expect(parseDuration("7d", "--cache-expiry")).toBe(7 * 86_400_000);
    expect(parseDuration("12h", "--x")).toBe(12 * 3_600_000);
    expect(parseDuration("2w", "--x")).toBe(14 * 86_400_000);
    expect(parseDuration("90", "--x")).toBe(90_000);
    expect(parseDuration("1.5m", "--x")).toBe(90_000);
    for (const bad of ["", "soon", "0d", "-1h", "7y"]) expect(() => parseDuration(bad, "--older-than")).toThrow("--older-than expects a duration");
  });
});

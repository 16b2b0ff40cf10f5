import { expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { SessionSigner } from "./session.ts";

const NAME = "MCQAResourcesServer___mcqa";

/** The cookie value as NeMo Gym-compatible servers seal it: base64url(JSON) "." 27 chars of HMAC-SHA256 keyed by the cookie name. */
function reference(session: object, key = NAME): string {
  const payload = Buffer.from(JSON.stringify(session)).toString("base64url");
  return `${payload}.${createHmac("sha256", key).update(payload).digest("base64url").slice(0, 27)}`;
}

test("sealed values are base64url(JSON) plus the HMAC prefix, and open back to the session", () => {
  const signer = new SessionSigner(NAME);
  for (const session of [{ session_id: "0a1b" }, { session_id: crypto.randomUUID(), n: 3, s: "é ✓" }]) {
    const value = signer.seal(session);
    expect(value).toBe(reference(session));
    expect(signer.setCookieLine(session)).toBe(`${NAME}=${value}; path=/; Max-Age=1209600; httponly; samesite=lax`);
    expect(new SessionSigner(NAME).open(value)).toEqual(session);
    expect(signer.open(value)).toEqual(session);
  }
});

test("forged, foreign and malformed values open as nothing; a new session then starts", () => {
  const signer = new SessionSigner(NAME);
  const session = { session_id: "abc" };
  expect(signer.open(reference(session, "OtherServer___x"))).toBeUndefined();
  expect(signer.open(`${reference(session).slice(0, -1)}A`)).toBeUndefined();
  expect(signer.open("no-dot")).toBeUndefined();
  expect(signer.open(reference({ not_a_session: 1 }))).toBeUndefined();
  const fresh = signer.session("forged.value");
  expect(fresh.session_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(signer.session(reference(session))).toEqual(session);
});

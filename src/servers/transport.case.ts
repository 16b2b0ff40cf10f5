/** The transport conformance suite: the same calls and expectations, run once per ServerClient implementation. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Hono } from "hono";
import { isServerCallError, type ServerClient } from "./client.ts";
import { InProcessServerClient } from "./in-process.ts";
import { createGymApp, HttpFailure, readJson, type GymEnv } from "./gym-app.ts";
import { sessionCookieName } from "./session.ts";

const COOKIE = sessionCookieName("CounterServer", "counter");

/** A small stateful server: a counter per session, echo, failures of every kind. */
export function counterApp(inner?: ServerClient): Hono<GymEnv> {
  const app = createGymApp({ cookieName: COOKIE, rolloutPrefix: "resources" });
  const counts = new Map<string, number>();
  app.post("/seed_session", async (c) => {
    const body = await readJson<{ start?: number }>(c);
    counts.set(c.get("session").session_id, body.start ?? 0);
    return c.json({});
  });
  app.post("/increment", async (c) => {
    const { by } = await readJson<{ by: number }>(c);
    const id = c.get("session").session_id;
    counts.set(id, (counts.get(id) ?? 0) + by);
    return c.json({ success: true });
  });
  app.post("/count", (c) => c.json({ count: counts.get(c.get("session").session_id) ?? null }));
  app.post("/echo", async (c) => c.json({ got: await readJson(c), ct: c.req.header("content-type") ?? null }));
  app.post("/raw", async (c) => c.text(`len=${(await c.req.text()).length}`));
  app.post("/bad-json-answer", (c) => c.text("{not json", 200));
  app.post("/teapot", () => {
    throw new HttpFailure(418, "short and stout");
  });
  app.post("/boom", () => {
    throw new TypeError("it's broken");
  });
  app.post("/slow", async (c) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return c.json({ slow: true });
  });
  app.post("/inner", async (c) => {
    await inner!.call("/missing", {});
    return c.json({ unreachable: true });
  });
  return app;
}

export interface TransportHarness {
  /** A client for `counterApp`, named "counter". */
  client: ServerClient;
  close(): Promise<void>;
}

/** Registers the suite; `connect` serves the app its own way and returns a client for it. */
export function transportSuite(label: string, connect: (app: Hono<GymEnv>) => Promise<TransportHarness>): void {
  describe(`transport conformance: ${label}`, () => {
    let harness: TransportHarness;
    let client: ServerClient;
    beforeAll(async () => {
      // The inner server is always in-process: what is under test is how the outer answer travels.
      const inner = new InProcessServerClient("inner", createGymApp({ cookieName: sessionCookieName("Inner", "inner") }));
      harness = await connect(counterApp(inner));
      client = harness.client;
    });
    afterAll(() => harness.close());

    test("liveness and JSON echo (content type, unicode, nested values)", async () => {
      const live = await client.get("/");
      expect([live.status, live.json()]).toEqual([200, { status: "ok" }]);
      const body = { a: [1, 2.5, null, true], s: "é ✓ 日本", nested: { k: "v" } };
      const echo = await client.call<{ got: unknown; ct: string }>("/echo", body);
      expect(echo.body).toEqual({ got: body, ct: "application/json" });
      expect(echo.reply.headers.get("content-type")).toContain("application/json");
    });

    test("a session cookie on every routed answer, with Python's attributes and name", async () => {
      for (const reply of [await client.get("/"), await client.post("/count", {}), await client.post("/nope", {})]) {
        expect(Object.keys(reply.cookies)).toEqual([COOKIE]);
        const header = reply.headers.get("set-cookie")!;
        expect(header).toContain("path=/");
        expect(header).toContain("Max-Age=1209600");
        expect(header.toLowerCase()).toContain("httponly");
        expect(header.toLowerCase()).toContain("samesite=lax");
      }
    });

    test("cookies carry state per rollout; no implicit jar between calls", async () => {
      const seeded = await client.call("/seed_session", { start: 15 });
      let jar = seeded.cookies;
      for (const by of [13, 14]) jar = (await client.call("/increment", { by }, { cookies: jar })).cookies;
      expect((await client.call("/count", {}, { cookies: jar })).body).toEqual({ count: 42 });
      // Without cookies the server sees a new session.
      expect((await client.call("/count", {})).body).toEqual({ count: null });
      // Two rollouts in parallel do not see each other.
      const other = (await client.call("/seed_session", { start: 1 })).cookies;
      expect((await client.call("/count", {}, { cookies: other })).body).toEqual({ count: 1 });
      expect((await client.call("/count", {}, { cookies: jar })).body).toEqual({ count: 42 });
      // A forged cookie counts as absent.
      expect((await client.call("/count", {}, { cookies: { [COOKIE]: "forged.value" } })).body).toEqual({ count: null });
    });

    test("rollout prefix is stripped before routing", async () => {
      const jar = (await client.call("/ng-rollout/3-1/seed_session", { start: 7 })).cookies;
      expect((await client.call("/ng-rollout/3-1-a2/count", {}, { cookies: jar })).body).toEqual({ count: 7 });
      expect((await client.post("/ng-rollout/-bad/count", {})).status).toBe(404);
    });

    test("404, 405, HTTPException and validation errors are answers, not exceptions", async () => {
      const missing = await client.post("/nope", { x: 1 });
      expect([missing.status, missing.text]).toEqual([404, '{"detail":"Not Found"}']);
      const wrongMethod = await client.get("/count");
      expect([wrongMethod.status, wrongMethod.text]).toEqual([405, '{"detail":"Method Not Allowed"}']);
      const teapot = await client.post("/teapot", {});
      expect([teapot.status, teapot.json()]).toEqual([418, { detail: "short and stout" }]);
      const invalid = await client.request("/echo", { method: "POST", body: "{oops", headers: { "content-type": "application/json" } });
      expect(invalid.status).toBe(422);
      expect(invalid.json<any>().detail[0]).toMatchObject({ type: "json_invalid", loc: ["body", 0], msg: "JSON decode error" });
      expect(Object.keys(invalid.cookies)).toEqual([COOKIE]);
    });

    test("unhandled errors: 500 with a JSON-string repr and no Set-Cookie; inner failures wrapped as Python does", async () => {
      const boom = await client.post("/boom", {});
      expect([boom.status, boom.json()]).toEqual([500, `TypeError("it's broken")`]);
      expect(boom.cookies).toEqual({});
      const inner = await client.post("/inner", {});
      expect(inner.status).toBe(500);
      expect(inner.json()).toBe(`Hit an exception in ${COOKIE} calling an inner server: b'{"detail":"Not Found"}'`);
    });

    test("call() throws a typed E_HTTP error with server, path, status and body excerpt", async () => {
      const error = await client.call("/teapot", {}).then(
        () => undefined,
        (e) => e,
      );
      expect(isServerCallError(error)).toBe(true);
      expect(error).toMatchObject({ code: "E_HTTP", server: "counter", path: "/teapot", status: 418, reason: "status", bodyExcerpt: '{"detail":"short and stout"}' });
      expect(error.message).toBe(`POST /teapot on server 'counter' answered 418: {"detail":"short and stout"}`);
      const notJson = await client.call("/bad-json-answer", {}).catch((e) => e);
      expect(notJson).toMatchObject({ code: "E_HTTP", reason: "invalid_json", status: 200 });
    });

    test("timeouts fail with reason timeout; a generous timeout passes", async () => {
      const error = await client.call("/slow", {}, { timeoutMs: 50 }).catch((e) => e);
      expect(error).toMatchObject({ code: "E_HTTP", reason: "timeout", server: "counter", path: "/slow" });
      expect((await client.call("/slow", {}, { timeoutMs: 5000 })).body).toEqual({ slow: true });
    });

    test("raw bodies and requests without a body", async () => {
      expect((await client.request("/raw", { method: "POST", body: "abc" })).text).toBe("len=3");
      expect((await client.request("/raw", { method: "POST" })).text).toBe("len=0");
    });

    test("many concurrent calls keep their own sessions", async () => {
      const results = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const jar = (await client.call("/seed_session", { start: i })).cookies;
          const next = (await client.call("/increment", { by: 1000 }, { cookies: jar })).cookies;
          return (await client.call<{ count: number }>("/count", {}, { cookies: next })).body.count;
        }),
      );
      expect(results).toEqual(Array.from({ length: 50 }, (_, i) => i + 1000));
    });
  });
}

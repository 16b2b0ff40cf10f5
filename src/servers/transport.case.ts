/** The transport conformance suite: the same calls and expectations, run once per ServerClient implementation. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Hono } from "hono";
import { isServerCallError, type ServerClient } from "./client.ts";
import { InProcessServerClient } from "./in-process.ts";
import { createGymApp, HttpFailure, readJson, type GymEnv } from "./gym-app.ts";
import { sessionCookieName } from "./session.ts";
import { jsonRoute, routeJson } from "./routes.ts";
import { pyFloat } from "../metrics/pyjson.ts";

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
  // JSON routes: in-process callers hand these their objects directly (no Request, Response or JSON text).
  jsonRoute(app, "/route/echo", async (request) => ({ json: { got: await routeJson(request), ct: request.header("content-type") ?? null, cookies: request.cookies() } }));
  jsonRoute(app, "/route/add", async (request) => {
    const { by } = await routeJson<{ by: number }>(request);
    const id = request.session.session_id;
    counts.set(id, (counts.get(id) ?? 0) + by);
    request.setCookie("extra", `n${counts.get(id)}`);
    return { json: { count: counts.get(id), rollout: request.rawPath } };
  });
  jsonRoute(app, "/route/py", () => ({ json: { reward: pyFloat(1), score: 0.5, skipped: undefined, list: [pyFloat(2), undefined, NaN] }, py: true }));
  jsonRoute(app, "/route/odd", () => ({ json: { when: new Date(0), missing: undefined } }));
  jsonRoute(app, "/route/teapot", () => {
    throw new HttpFailure(418, "short and stout");
  });
  jsonRoute(app, "/route/boom", (request) => {
    request.setCookie("before", "boom");
    throw new TypeError("it's broken");
  });
  jsonRoute(app, "/route/inner", async () => {
    await inner!.call("/missing", {});
    return { json: { unreachable: true } };
  });
  jsonRoute(app, "/route/slow", async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { json: { slow: true } };
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

    test("JSON routes: bodies, headers and cookies as over HTTP", async () => {
      const body = { a: [1, 2.5, null, true], s: "é ✓ 日本", nested: { k: "v" } };
      const echo = await client.call<Record<string, unknown>>("/route/echo", body, { cookies: { a: "1", b: "x=y" } });
      expect(echo.body).toEqual({ got: body, ct: "application/json", cookies: { a: "1", b: "x=y" } });
      expect(echo.reply.text).toBe(JSON.stringify(echo.body));
      expect(echo.reply.headers.get("content-type")).toBe("application/json");
      expect(Object.keys(echo.cookies)).toEqual([COOKIE]);
      // The caller's copy is its own: changing it changes neither the server's answer nor a second read.
      (echo.body.got as Record<string, unknown>).s = "changed";
      expect(echo.reply.json<Record<string, { s: string }>>().got.s).toBe("changed");
      expect(JSON.parse(echo.reply.text).got.s).toBe("é ✓ 日本");
      expect(body.s).toBe("é ✓ 日本");
      // A caller that only reads may be handed the server's own answer: same values either way.
      expect((await client.call("/route/echo", body, { readOnlyAnswer: true })).body).toEqual({ got: body, ct: "application/json", cookies: {} });
      // Cookies that do not survive a header unchanged (quotes, spaces) arrive as a header would carry them.
      const odd = await client.call<{ cookies: unknown }>("/route/echo", {}, { cookies: { q: '"quoted"', s: " spaced " } });
      expect(odd.body.cookies).toEqual({ q: "quoted", s: "spaced" });
      // A raw text body (how reverify sends) and a malformed one.
      expect((await client.request("/route/echo", { method: "POST", body: '{"x":1}' })).json<{ got: unknown }>().got).toEqual({ x: 1 });
      const invalid = await client.request("/route/echo", { method: "POST", body: "{oops", headers: { "content-type": "application/json" } });
      expect(invalid.status).toBe(422);
      expect(invalid.json<any>().detail[0]).toMatchObject({ type: "json_invalid", loc: ["body", 0], msg: "JSON decode error" });
    });

    test("JSON routes: sessions, rollout prefix, extra cookies in order", async () => {
      const first = await client.call<{ count: number; rollout: string }>("/ng-rollout/7-2/route/add", { by: 5 });
      expect(first.body).toEqual({ count: 5, rollout: "/ng-rollout/7-2/route/add" });
      expect(Object.keys(first.cookies)).toEqual(["extra", COOKIE]);
      expect(first.reply.headers.getSetCookie()[0]).toBe("extra=n5; Path=/; SameSite=lax");
      const second = await client.call<{ count: number }>("/route/add", { by: 2 }, { cookies: first.cookies });
      expect(second.body.count).toBe(7);
      expect(second.cookies[COOKIE]).toBe(first.cookies[COOKIE]);
    });

    test("JSON routes: Python floats, non-JSON values and errors", async () => {
      const py = await client.call<Record<string, unknown>>("/route/py", {});
      expect(py.reply.text).toBe('{"reward":1.0,"score":0.5,"list":[2.0,null,null]}');
      expect(py.body).toEqual({ reward: 1, score: 0.5, list: [2, null, null] });
      const odd = await client.call<Record<string, unknown>>("/route/odd", {});
      expect([odd.reply.text, odd.body]).toEqual(['{"when":"1970-01-01T00:00:00.000Z"}', { when: "1970-01-01T00:00:00.000Z" }]);
      const teapot = await client.post("/route/teapot", {});
      expect([teapot.status, teapot.text, Object.keys(teapot.cookies)]).toEqual([418, '{"detail":"short and stout"}', [COOKIE]]);
      const boom = await client.post("/route/boom", {});
      expect([boom.status, boom.json(), boom.cookies]).toEqual([500, `TypeError("it's broken")`, { before: "boom" }]);
      const inner = await client.post("/route/inner", {});
      expect([inner.status, inner.json()]).toEqual([500, `Hit an exception in ${COOKIE} calling an inner server: b'{"detail":"Not Found"}'`]);
      expect((await client.get("/route/echo")).status).toBe(405);
      const slow = await client.call("/route/slow", {}, { timeoutMs: 50 }).catch((e) => e);
      expect(slow).toMatchObject({ code: "E_HTTP", reason: "timeout", path: "/route/slow" });
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

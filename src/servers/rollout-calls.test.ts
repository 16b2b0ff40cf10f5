/** One cookie state per rollout (RolloutCalls) gives each server exactly what an agent keeping one jar per server sends it. */
import { describe, expect, test } from "bun:test";
import type { ServerClient, ServerDirectory, ServerReply } from "./client.ts";
import type { Cookies } from "./cookies.ts";
import { InProcessServerClient } from "./in-process.ts";
import { RolloutCalls } from "./rollout-calls.ts";
import { counterApp } from "./transport.case.ts";

/** The calls of one rollout against the counter server: JSON routes, Hono routes, an unhandled failure that drops the session. */
const STEPS: [string, unknown][] = [
  ["/seed_session", { start: 5 }],
  ["/route/add", { by: 2 }],
  ["/increment", { by: 3 }],
  ["/route/add", { by: 1 }],
  ["/count", {}],
  ["/route/echo", { x: 1 }],
  ["/route/boom", {}],
  ["/count", {}],
  ["/route/add", { by: 7 }],
  ["/count", {}],
];

/** A reply without its session's random value. */
const seen = (reply: ServerReply) => ({ status: reply.status, text: reply.text.replace(/("CounterServer___counter":)"[^"]*"/, '$1"<session>"'), cookies: Object.keys(reply.cookies).sort() });

function directory(client: ServerClient): ServerDirectory {
  return { get: () => client };
}

describe("RolloutCalls", () => {
  test("a rollout's calls see the sessions and cookies a jar per server gives them", async () => {
    const viaJars: unknown[] = [];
    const jarClient = new InProcessServerClient("counter", counterApp());
    let jar: Cookies = { theirs: "x" };
    for (const [path, body] of STEPS) {
      const reply = await jarClient.post(path, body, { cookies: jar });
      viaJars.push(seen(reply));
      jar = reply.cookies;
    }
    const viaState: unknown[] = [];
    const calls = new RolloutCalls(directory(new InProcessServerClient("counter", counterApp())));
    calls.start("counter", { theirs: "x" });
    const client = calls.get("counter");
    for (const [path, body] of STEPS) viaState.push(seen(await client.post(path, body, { cookies: { ignored: "1" } })));
    expect(viaState).toEqual(viaJars);
    // The counts carried across JSON and Hono routes, and restarted after the failure dropped the session.
    expect((viaState[4] as { text: string }).text).toBe('{"count":11}');
    expect((viaState[7] as { text: string }).text).toBe('{"count":null}');
    expect((viaState[9] as { text: string }).text).toBe('{"count":7}');
  });

  test("what the route sees of the cookies is the jar the caller would have sent", async () => {
    const calls = new RolloutCalls(directory(new InProcessServerClient("counter", counterApp())));
    calls.start("counter", { theirs: "x" });
    const reply = await calls.get("counter").post("/route/echo", { a: 1 });
    expect(reply.json<{ cookies: Cookies }>().cookies).toEqual({ theirs: "x" });
    const again = await calls.get("counter").post("/route/echo", { a: 2 });
    // The first answer set the session cookie only: that is what a jar replaced by the answer's cookies holds.
    expect(Object.keys(again.json<{ cookies: Cookies }>().cookies)).toEqual(["CounterServer___counter"]);
  });
});

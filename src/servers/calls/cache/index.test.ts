import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { isCacheable } from "./cacheable.ts";
import { cachedModelCall, callScopeMiddleware, COUNTS_HEADER, disableResponseCache, enableResponseCache, runInCallScope, SCOPE_HEADER, type KeepAnswer } from "./index.ts";

const reply = (text: string) => ({ id: "r", object: "response", status: "completed", output: [{ type: "message", content: [{ type: "output_text", text }] }] });
let upstreamCalls = 0;
/** A send that answers a new sample each call (as temperature 1 would), and `keep`s it as postUpstream does. */
const sample = (keep: KeepAnswer | undefined) => {
  const value = reply(`sample ${++upstreamCalls}`);
  keep?.(JSON.stringify(value), value);
  return Promise.resolve(value);
};
const call = (content = "hi") => ({ url: "http://mock/v1/responses", body: { model: "m", input: [{ role: "user", content }], temperature: 1 }, apiKey: "sk-x" });
const text = (answer: unknown) => (answer as ReturnType<typeof reply>).output[0]!.content[0]!.text;

beforeEach(() => {
  upstreamCalls = 0;
  enableResponseCache({ expiryMs: 60_000, path: join(mkdtempSync(join(tmpdir(), "gym-cache-layer-")), "responses.sqlite") });
});
afterEach(() => disableResponseCache());

describe("cachedModelCall", () => {
  test("repeats of one rollout set are distinct samples; the same rollouts again are hits; counts per rollout", async () => {
    const rollouts = async () => {
      const out: { text: string; hits: number; misses: number }[] = [];
      for (let repeat = 0; repeat < 4; repeat++) {
        const scoped = runInCallScope(repeat, async () => text(await cachedModelCall(call(), sample)));
        out.push({ text: await scoped.result, ...scoped.counts });
      }
      return out;
    };
    const first = await rollouts();
    expect(upstreamCalls).toBe(4);
    expect(new Set(first.map((r) => r.text)).size).toBe(4);
    expect(first.every((r) => r.hits === 0 && r.misses === 1)).toBe(true);
    const second = await rollouts();
    expect(upstreamCalls).toBe(4);
    expect(second.map((r) => r.text)).toEqual(first.map((r) => r.text));
    expect(second.every((r) => r.hits === 1 && r.misses === 0)).toBe(true);
  });

  test("the second identical call within one rollout is its own entry (a judge asked twice)", async () => {
    const twice = () => runInCallScope(0, async () => [text(await cachedModelCall(call(), sample)), text(await cachedModelCall(call(), sample))]).result;
    const first = await twice();
    expect(first[0]).not.toBe(first[1]);
    expect(await twice()).toEqual(first);
    expect(upstreamCalls).toBe(2);
  });

  test("identical calls in flight at once are sent once", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = async (keep: KeepAnswer | undefined) => {
      await gate;
      return sample(keep);
    };
    // Outside any rollout scope the n-th identical call is its own entry; these are two rollouts with the same repeat index.
    const a = runInCallScope(0, () => cachedModelCall(call(), slow)).result;
    const b = runInCallScope(0, () => cachedModelCall(call(), slow)).result;
    release();
    expect(text(await a)).toBe(text(await b));
    expect(upstreamCalls).toBe(1);
  });

  test("errors and answers not worth keeping are not stored", async () => {
    const failing = () => Promise.reject(new Error("HTTP 500"));
    await expect(runInCallScope(0, () => cachedModelCall(call("e"), failing)).result).rejects.toThrow("HTTP 500");
    const empty = (keep: KeepAnswer | undefined) => {
      upstreamCalls++;
      const value = reply("");
      keep?.(JSON.stringify(value), value);
      return Promise.resolve(value);
    };
    await runInCallScope(0, () => cachedModelCall(call("e"), empty)).result;
    await runInCallScope(0, () => cachedModelCall(call("e"), sample)).result;
    expect(upstreamCalls).toBe(2);
  });

  test("a call scope travels over HTTP in a header and the counts come back", async () => {
    const app = new Hono();
    app.use("*", callScopeMiddleware);
    app.post("/run", async (c) => c.json({ text: text(await cachedModelCall(call(), sample)) }));
    const post = (repeat: string, attempt: string) => app.request("/run", { method: "POST", headers: { [SCOPE_HEADER]: `${repeat};${attempt}` } });
    const first = await post("0", "a1");
    expect(first.headers.get(COUNTS_HEADER)).toBe("0,1");
    const other = await post("1", "a2");
    expect((await other.json()).text).not.toBe((await first.json()).text);
    const again = await post("0", "a3");
    expect(again.headers.get(COUNTS_HEADER)).toBe("1,0");
    expect(upstreamCalls).toBe(2);
  });

  test("turned off, every call is sent", async () => {
    await disableResponseCache();
    await cachedModelCall(call(), sample);
    await cachedModelCall(call(), sample);
    expect(upstreamCalls).toBe(2);
  });
});

describe("isCacheable", () => {
  const chat = (message: object, finish_reason = "stop") => ({ choices: [{ index: 0, finish_reason, message: { role: "assistant", ...message } }] });
  test("complete answers are kept", () => {
    expect(isCacheable(reply("A"))).toBe(true);
    expect(isCacheable(chat({ content: "A" }))).toBe(true);
    expect(isCacheable(chat({ content: null, tool_calls: [{ id: "1" }] }))).toBe(true);
    expect(isCacheable({ tokens: [1, 2] })).toBe(true);
  });
  test("refusals, content filters, empty, failed and error bodies are not", () => {
    expect(isCacheable(chat({ content: "" }))).toBe(false);
    expect(isCacheable(chat({ content: "x" }, "content_filter"))).toBe(false);
    expect(isCacheable(chat({ content: null, refusal: "I can't" }))).toBe(false);
    expect(isCacheable({ choices: [] })).toBe(false);
    expect(isCacheable(reply(""))).toBe(false);
    expect(isCacheable({ ...reply("x"), status: "failed" })).toBe(false);
    expect(isCacheable({ ...reply("x"), status: "incomplete", incomplete_details: { reason: "content_filter" } })).toBe(false);
    expect(isCacheable({ object: "response", output: [{ type: "message", content: [{ type: "refusal", refusal: "no" }] }] })).toBe(false);
    expect(isCacheable({ error: { message: "x" } })).toBe(false);
    expect(isCacheable([])).toBe(false);
    expect(isCacheable({})).toBe(false);
  });
});

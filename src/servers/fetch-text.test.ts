/** fetchText sends, answers and fails exactly as the ofetch call it replaces. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { $fetch } from "ofetch";
import { serve, type ServedApp } from "../runtime/serve.ts";
import { fetchText, type FetchTextOptions } from "./fetch-text.ts";

/** Header entries in order, without the one that varies by the second. */
function entries(headers: Headers, skip: string[] = ["date"]): [string, string][] {
  const out: [string, string][] = [];
  headers.forEach((value, key) => {
    if (!skip.includes(key)) out.push([key, value]);
  });
  return out;
}

/** What ofetch answered before: status, headers and body text, or the error it threw. */
async function viaOfetch(url: string, options: FetchTextOptions) {
  try {
    const response = await $fetch.raw<string, "text">(url, {
      method: options.method,
      headers: options.headers,
      body: options.body,
      retry: 0,
      ignoreResponseError: true,
      responseType: "text",
      timeout: options.timeoutMs,
    });
    return { status: response.status, headers: entries(response.headers), text: response._data ?? "" };
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
}

async function viaFetchText(url: string, options: FetchTextOptions) {
  try {
    const response = await fetchText(url, options);
    return { status: response.status, headers: entries(response.headers), text: response.text };
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
}

describe("fetchText matches ofetch's $fetch.raw", () => {
  let served: ServedApp;
  let gone: string;
  beforeAll(async () => {
    // Echoes what arrived: method, every header, body.
    served = await serve(async (request) => {
      const path = new URL(request.url).pathname;
      if (path === "/slow") await new Promise((resolve) => setTimeout(resolve, 300));
      if (path === "/empty") return new Response(null, { status: 204 });
      if (path === "/limited") return new Response('{"error":"slow down"}', { status: 429, headers: { "retry-after": "2", "content-type": "application/json" } });
      const headers = entries(request.headers, ["host", "user-agent", "connection", "content-length"]);
      return Response.json({ method: request.method, headers, body: await request.text() }, { status: path === "/fail" ? 500 : 200 });
    });
    const closed = await serve(() => new Response("x"));
    gone = closed.url;
    await closed.stop();
  });
  afterAll(() => served.stop());

  const cases: [string, string, FetchTextOptions][] = [
    ["JSON POST with a key and extra headers", "/echo", { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer k", "x-extra": "1" }, body: '{"a":1}', timeoutMs: 5000 }],
    ["a body without a content type gets application/json and accept", "/echo", { method: "post", headers: {}, body: "plain" }],
    ["a caller's accept is kept", "/echo", { method: "POST", headers: { accept: "text/plain" }, body: "{}" }],
    ["an empty body adds nothing", "/echo", { method: "POST", headers: {}, body: "" }],
    ["GET", "/echo", { method: "GET", headers: { "x-a": "b" } }],
    ["a 500 answer is an answer", "/fail", { method: "POST", headers: {}, body: "{}" }],
    ["204: no body", "/empty", { method: "POST", headers: {}, body: "{}" }],
    ["429 with retry-after", "/limited", { method: "POST", headers: {}, body: "{}" }],
    ["a timeout", "/slow", { method: "POST", headers: {}, body: "{}", timeoutMs: 50 }],
  ];
  for (const [label, path, options] of cases) {
    test(label, async () => {
      expect(await viaFetchText(`${served.url}${path}`, options)).toEqual(await viaOfetch(`${served.url}${path}`, options));
    });
  }

  test("a refused connection", async () => {
    const options = { method: "POST", headers: {}, body: "{}" };
    const ours = await viaFetchText(`${gone}/v1/responses`, options);
    expect(ours).toEqual(await viaOfetch(`${gone}/v1/responses`, options));
    expect(ours).toMatchObject({ name: "FetchError", message: expect.stringContaining("<no response>") });
  });
});

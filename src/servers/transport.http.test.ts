import { serve } from "../runtime/serve.ts";
import { HttpServerClient } from "./http.ts";
import { transportSuite } from "./transport.case.ts";

transportSuite("HTTP over loopback (ofetch)", async (app) => {
  const served = await serve(app.fetch);
  const client = new HttpServerClient("counter", served.url);
  return {
    client,
    async close() {
      await client.close();
      await served.stop();
    },
  };
});

import { expect, test } from "bun:test";

test("HTTP only: a refused connection is a typed E_HTTP error with reason connection", async () => {
  const served = await serve((_r) => new Response("x"));
  const url = served.url;
  await served.stop();
  const client = new HttpServerClient("gone", url, { connectRetries: 1 });
  const error = await client.get("/").catch((e) => e);
  expect(error).toMatchObject({ code: "E_HTTP", reason: "connection", server: "gone", path: "/" });
  expect(error.hint).toContain("gym env start");
});

/** Transport benchmark: µs per verify-shaped call, in-process (`app.fetch`) vs loopback HTTP, side by side. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serve } from "../../src/runtime/serve.ts";
import { HttpServerClient } from "../../src/servers/http.ts";
import { InProcessServerClient } from "../../src/servers/in-process.ts";
import { createGymApp, readJson } from "../../src/servers/gym-app.ts";
import { sessionCookieName } from "../../src/servers/session.ts";
import type { ServerClient } from "../../src/servers/client.ts";

const N = Number(process.env.N ?? 5000);
const rollout = JSON.parse(readFileSync(join(import.meta.dirname!, "../../fixtures/servers/example_single_tool_call_rollouts.jsonl"), "utf8").split("\n")[1]!);
const body = { ...rollout, _ng_task_index: 0, _ng_rollout_index: 0 };
const bytes = JSON.stringify(body).length;

/** A verify endpoint doing what a trivial verifier does: parse, echo params/response, add a reward. */
const app = createGymApp({ cookieName: sessionCookieName("BenchServer", "bench") });
app.post("/verify", async (c) => {
  const request = await readJson<Record<string, unknown>>(c);
  return c.json({ responses_create_params: request.responses_create_params, response: request.response, reward: 1.0 });
});

/** The work without any transport: serialise, parse, build the answer, serialise, parse. */
function bare(): unknown {
  const request = JSON.parse(JSON.stringify(body));
  return JSON.parse(JSON.stringify({ responses_create_params: request.responses_create_params, response: request.response, reward: 1.0 }));
}

async function time(label: string, n: number, call: () => Promise<unknown> | unknown): Promise<number> {
  for (let i = 0; i < Math.min(1000, n); i++) await call();
  const start = performance.now();
  for (let i = 0; i < n; i++) await call();
  const us = ((performance.now() - start) * 1000) / n;
  console.log(`${label.padEnd(34)} ${us.toFixed(1).padStart(8)} µs/call`);
  return us;
}

async function concurrent(label: string, client: ServerClient, n: number, width: number): Promise<void> {
  let cookies = (await client.call("/verify", body)).cookies;
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next++ < n) cookies = (await client.call("/verify", body, { cookies })).cookies;
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  console.log(`${label.padEnd(34)} ${(n / seconds).toFixed(0).padStart(8)} calls/s (${width} in flight)`);
}

console.log(`verify-shaped call: ${bytes} bytes of JSON each way, ${N} calls, ${process.versions.bun ? `bun ${process.versions.bun}` : "deno"}`);
const inProcess = new InProcessServerClient("bench", app);
const served = await serve(app.fetch);
const http = new HttpServerClient("bench", served.url);
let jar = (await inProcess.call("/verify", body)).cookies;
const baseline = await time("no transport (JSON work only)", N, bare);
const local = await time("in-process ServerClient", N, async () => (jar = (await inProcess.call("/verify", body, { cookies: jar })).cookies));
let httpJar = (await http.call("/verify", body)).cookies;
const remote = await time("loopback HTTP ServerClient", Math.min(N, 3000), async () => (httpJar = (await http.call("/verify", body, { cookies: httpJar })).cookies));
console.log(`in-process overhead over the bare JSON work: ${(local - baseline).toFixed(1)} µs/call (target < 20)`);
console.log(`loopback HTTP / in-process: ${(remote / local).toFixed(1)}x`);
await concurrent("in-process, concurrent", inProcess, N, 32);
await concurrent("loopback HTTP, concurrent", http, Math.min(N, 3000), 32);
await served.stop();

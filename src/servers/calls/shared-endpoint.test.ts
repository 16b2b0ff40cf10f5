// The policy and a judge on the same endpoint and key share one limiter (built-in openai_model servers, in process),
// and --no-adaptive (adaptive_concurrency=false) leaves both without one.
import { afterEach, describe, expect, test } from "bun:test";
import openaiModel from "../../components/responses_api_models/openai_model/index.ts";
import { serve, type ServedApp } from "../../runtime/serve.ts";
import { rateLimitedEndpoint } from "../../testing/rate-limited-endpoint.ts";
import { allLimiters, resetLimiters } from "./limiters.ts";
import { isRemoteEndpoint } from "./settings.ts";

let served: ServedApp | undefined;
afterEach(async () => {
  await served?.stop();
  resetLimiters();
});

async function models(globalConfig: Record<string, unknown>, judgeKey = "sk-shared") {
  const endpoint = rateLimitedEndpoint({ maxInFlight: 24 });
  served = await serve(endpoint.fetch);
  const context = (name: string) => ({ name, serverType: "responses_api_models", implementation: "openai_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig }) as never;
  const block = (name: string, key: string) => ({ name, openai_base_url: `${served!.url}/v1`, openai_api_key: key, openai_model: name });
  const policy = await openaiModel(block("policy_model", "sk-shared"), context("policy_model"));
  const judge = await openaiModel(block("judge_model", judgeKey), context("judge_model"));
  const ask = (app: typeof policy, i: number) => app.request("/v1/responses", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ input: `question ${i}` }) });
  return { endpoint, policy, judge, ask };
}

describe("one limiter per (endpoint, key), shared by the policy and its judges", () => {
  test("same URL and key: one limiter counts both servers' calls, its ceiling the run's --concurrency", async () => {
    const { policy, judge, ask } = await models({ num_samples_in_parallel: 64, adaptive_concurrency: true });
    const answers = await Promise.all([...Array.from({ length: 30 }, (_, i) => ask(policy, i)), ...Array.from({ length: 20 }, (_, i) => ask(judge, 100 + i))]);
    expect(answers.map((a) => a.status).every((s) => s === 200)).toBe(true);
    const mine = allLimiters().filter((l) => l.endpoint === `${served!.url}/v1`);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.stats.calls).toBe(50);
    expect(mine[0]!.ceiling).toBe(64);
  });

  test("another key is another controller; adaptive_concurrency=false makes none", async () => {
    const { policy, judge, ask } = await models({ adaptive_concurrency: true }, "sk-judge");
    await Promise.all([ask(policy, 1), ask(judge, 2)]);
    expect(allLimiters().filter((l) => l.endpoint === `${served!.url}/v1`)).toHaveLength(2);
    await served!.stop();
    resetLimiters();
    const fixed = await models({ adaptive_concurrency: false });
    await Promise.all([fixed.ask(fixed.policy, 1), fixed.ask(fixed.judge, 2)]);
    expect(fixed.endpoint.stats.served).toBe(2);
    expect(allLimiters().filter((l) => l.endpoint === `${served!.url}/v1`)).toHaveLength(0);
  });

  test("unset, adaptive concurrency is on for a remote endpoint and off for loopback (self-hosted: no 429s, no slow start)", async () => {
    const loopback = await models({});
    await Promise.all([loopback.ask(loopback.policy, 1), loopback.ask(loopback.judge, 2)]);
    expect(loopback.endpoint.stats.served).toBe(2);
    expect(allLimiters().filter((l) => l.endpoint === `${served!.url}/v1`)).toHaveLength(0);
    for (const url of ["https://api.openai.com/v1", "http://10.0.0.7:8000/v1", "http://gpu-node-3:8000/v1", "not a url"]) expect(isRemoteEndpoint(url)).toBe(true);
    for (const url of ["http://127.0.0.1:8000/v1", "http://localhost:8000/v1", "http://[::1]:8000/v1", "http://127.1.2.3/v1"]) expect(isRemoteEndpoint(url)).toBe(false);
  });
});

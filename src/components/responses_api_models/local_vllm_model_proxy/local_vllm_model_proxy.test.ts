// The vLLM here is fixtures/models/bin/vllm, a stand-in (vLLM cannot be installed without a GPU; see fixtures/models/README.md).
import { describe, expect, test } from "bun:test";
import { InProcessServerClient } from "../../../servers/in-process.ts";
import { pathWithStandIn, standInSubject, withEnv } from "../../../testing/vllm-stand-in.ts";
import { modelConformanceSuite } from "../conformance.case.ts";
import { buildLocalVllmModel } from "../local_vllm_model/index.ts";
import proxyFactory from "./index.ts";

const MODEL = "openai/gpt-oss-20b";
const localContext = { name: "gpt-oss-20b", serverType: "responses_api_models", implementation: "local_vllm_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} } as const;
const localBlock = { name: "gpt-oss-20b", model: MODEL, uses_reasoning_parser: false, vllm_serve_kwargs: { tensor_parallel_size: 1 } };

/** The proxy's context: its peers are this one local_vllm_model, reached in-process. */
function proxyContext(peer: () => InProcessServerClient) {
  return { name: "policy_model_proxy", serverType: "responses_api_models", implementation: "local_vllm_model_proxy", servers: { get: (name: string) => (name === "gpt-oss-20b" ? peer() : (() => { throw new Error(`no ${name}`); })()) }, globalConfig: {} } as const;
}

modelConformanceSuite("local_vllm_model_proxy (over a local_vllm_model's stand-in vllm)", () =>
  withEnv({ PATH: pathWithStandIn() }, async () => {
    const { app: local, vllm } = await buildLocalVllmModel(localBlock, localContext, { className: "LocalVLLMModel" });
    const peer = new InProcessServerClient("gpt-oss-20b", local);
    const app = await proxyFactory({ name: "policy_model_proxy", uses_reasoning_parser: false, model_server: { type: "responses_api_models", name: "gpt-oss-20b" }, upstream: { baseDelayMs: 1, maxDelayMs: 5 } }, proxyContext(() => peer));
    return standInSubject(app, MODEL, vllm!.baseUrl, () => vllm!.stop());
  }),
);

describe("local_vllm_model_proxy", () => {
  test("waits for the referenced server's vLLM, then uses its base_url, key and model; extra_body is its own", async () => {
    await withEnv({ PATH: pathWithStandIn() }, async () => {
      const { app: local, vllm } = await buildLocalVllmModel(localBlock, localContext, { className: "LocalVLLMModel" });
      try {
        let asked = 0;
        const peer = new InProcessServerClient("gpt-oss-20b", local);
        // The first two asks find it still starting (as a Python peer answers before its vLLM is up).
        const starting = { get: async (path: string) => (++asked <= 2 ? { ok: false, status: 503 } : peer.get(path)) } as unknown as InProcessServerClient;
        const app = await proxyFactory({ model_server: { name: "gpt-oss-20b" }, poll_interval_s: 0.01, uses_reasoning_parser: false, extra_body: { max_tokens: 10 } }, proxyContext(() => starting));
        const reply = await app.request("/v1/responses", { method: "POST", body: JSON.stringify({ input: "Which is prime?\nA: 4\nB: 7" }) });
        expect(reply.status).toBe(200);
        expect(((await reply.json()) as any).model).toBe(MODEL);
        expect(asked).toBe(3);
        const seen = (await (await fetch(`${vllm!.baseUrl.replace(/\/v1$/, "")}/_stand_in/seen`)).json()) as any[];
        expect(seen.filter((c) => c.method === "POST").at(-1).body).toMatchObject({ model: MODEL, max_tokens: 10 });
      } finally {
        await vllm?.stop();
      }
    });
  }, 60_000);

  test("without model_server.name it is a config error naming the key", () => {
    expect(() => proxyFactory({ name: "p" }, proxyContext(() => { throw new Error("unused"); }))).toThrow("local_vllm_model_proxy needs `model_server.name`");
  });
});

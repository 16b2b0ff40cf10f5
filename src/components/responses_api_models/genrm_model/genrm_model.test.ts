// The vLLM here is fixtures/models/bin/vllm, a stand-in (vLLM cannot be installed without a GPU; see fixtures/models/README.md).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Hono } from "hono";
import { pathWithoutVllm, pathWithStandIn, standInSubject, withEnv } from "../../../testing/vllm-stand-in.ts";
import { modelConformanceSuite } from "../conformance.case.ts";
import { buildLocalVllmModel } from "../local_vllm_model/index.ts";
import type { VllmProcess } from "../local_vllm_model/launch.ts";
import genrmFactory, { genrmMessages } from "./index.ts";

const MODEL = "nvidia/Qwen3-Nemotron-235B-A22B-GenRM-2603";
const context = { name: "genrm_model", serverType: "responses_api_models", implementation: "genrm_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} } as const;
const block = (extra: Record<string, unknown> = {}) => ({ name: "genrm_model", model: MODEL, uses_reasoning_parser: true, vllm_serve_kwargs: { tensor_parallel_size: 1 }, upstream: { baseDelayMs: 1, maxDelayMs: 5 }, ...extra });
const build = (extra: Record<string, unknown> = {}) =>
  buildLocalVllmModel(block(extra), context, { className: "GenRMModel", preprocessChat: genrmMessages((extra.supports_principle_role as boolean | undefined) ?? true) });

modelConformanceSuite("genrm_model (stand-in vllm on PATH)", () =>
  withEnv({ PATH: pathWithStandIn() }, async () => {
    const { app, vllm } = await build();
    return standInSubject(app, MODEL, vllm!.baseUrl, () => vllm!.stop());
  }),
);

describe("genrm_model: the comparison payload in metadata becomes GenRM's role messages", () => {
  let app: Hono<any>;
  let vllm: VllmProcess;
  const lastSent = async () => ((await (await fetch(`${vllm.baseUrl.replace(/\/v1$/, "")}/_stand_in/seen`)).json()) as any[]).filter((c) => c.method === "POST").at(-1).body;
  beforeAll(async () => {
    ({ app, vllm } = (await withEnv({ PATH: pathWithStandIn() }, () => build())) as { app: Hono<any>; vllm: VllmProcess });
  }, 60_000);
  afterAll(() => vllm?.stop());

  test("principle, response_1, response_2 are appended after the conversation, and metadata is not sent", async () => {
    const reply = await app.request("/v1/responses", {
      method: "POST",
      body: JSON.stringify({ input: [{ role: "user", content: "Write a haiku about rain." }], metadata: { principle: "Prefer vivid imagery.", response_1: "Rain taps the window", response_2: "Water falls down" } }),
    });
    expect(reply.status).toBe(200);
    const sent = await lastSent();
    expect(sent.messages).toEqual([
      { role: "user", content: "Write a haiku about rain." },
      { role: "principle", content: "Prefer vivid imagery." },
      { role: "response_1", content: "Rain taps the window" },
      { role: "response_2", content: "Water falls down" },
    ]);
    expect("metadata" in sent).toBe(false);
  });

  test("without supports_principle_role the principle is dropped; an absent response is not appended", () => {
    const body = genrmMessages(false)({ messages: [{ role: "user", content: "q" }], metadata: { principle: "p", response_1: "a" } });
    expect(body).toEqual({ messages: [{ role: "user", content: "q" }, { role: "response_1", content: "a" }] });
  });

  test("the factory refuses clearly without vllm, as local_vllm_model does", async () => {
    const error = await withEnv({ PATH: pathWithoutVllm() }, () => Promise.resolve(genrmFactory(block(), context)).catch((e) => e));
    expect(error.message).toBe("Model server `genrm_model` starts a local vLLM (`vllm serve`), but no `vllm` executable is on PATH.");
  });
});

import { serveStandIn } from "../../../testing/model-stand-in.ts";
import { modelConformanceSuite } from "../conformance.case.ts";
import vllmModel from "./index.ts";

const context = { name: "policy_model", serverType: "responses_api_models", implementation: "vllm_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} } as const;

modelConformanceSuite("vllm_model", async () => {
  const standIn = await serveStandIn([{ path: "/v1/chat/completions", headers: { authorization: "Bearer EMPTY" }, answer: "/v1/chat/completions" }]);
  const app = await vllmModel({ name: "policy_model", base_url: `${standIn.url}/v1`, api_key: "EMPTY", model: "Qwen/Qwen3-8B", uses_reasoning_parser: false, upstream: { baseDelayMs: 1, maxDelayMs: 5 } }, context);
  return { app, model: "Qwen/Qwen3-8B", seen: async () => standIn.seen, failNext: async (s, b) => standIn.failNext(s, b), close: () => standIn.stop() };
});

import { serveStandIn } from "../../../testing/model-stand-in.ts";
import { modelConformanceSuite } from "../conformance.case.ts";
import openaiModel from "./index.ts";

const context = { name: "policy_model", serverType: "responses_api_models", implementation: "openai_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} } as const;

modelConformanceSuite("openai_model", async () => {
  const standIn = await serveStandIn([
    { path: "/v1/responses", headers: { authorization: "Bearer sk-openai" }, answer: "/v1/responses" },
    { path: "/v1/chat/completions", headers: { authorization: "Bearer sk-openai" }, answer: "/v1/chat/completions" },
  ]);
  const app = await openaiModel({ name: "policy_model", openai_base_url: `${standIn.url}/v1`, openai_api_key: "sk-openai", openai_model: "gpt-4.1-mini", upstream: { baseDelayMs: 1, maxDelayMs: 5 } }, context);
  return { app, model: "gpt-4.1-mini", seen: async () => standIn.seen, failNext: async (s, b) => standIn.failNext(s, b), close: () => standIn.stop() };
});

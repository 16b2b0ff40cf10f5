/** The model API coding-agent CLIs speak (streaming Responses and Chat, Anthropic Messages), and the per-rollout gateway in front of it. */
export { answerModelApi, isModelApiCall, MODEL_API_PATHS, type InnerCall, type ModelApiExchange, type ModelApiPath, type Observe } from "./answer.ts";
export { modelApiMiddleware } from "./middleware.ts";
export { rolloutGateway, type RolloutGatewayOptions } from "./rollout-gateway.ts";
export { RolloutTokens, type RolloutEntry, type RolloutModelCall } from "./rollout-tokens.ts";
export { captureRecord, errorCategory } from "./capture-record.ts";

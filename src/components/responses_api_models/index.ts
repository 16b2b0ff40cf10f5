/** Built-in model servers: implementation name → lazy module whose default export builds the Hono app. */
import type { ServerCatalog } from "../../servers/registry.ts";

export const catalog: ServerCatalog = {
  openai_model: () => import("./openai_model/index.ts"),
  vllm_model: () => import("./vllm_model/index.ts"),
  replay_model: () => import("./replay_model/index.ts"),
  mock_model: () => import("./mock_model/index.ts"),
  azure_openai_model: () => import("./azure_openai_model/index.ts"),
  inference_provider: () => import("./inference_provider/index.ts"),
  litellm_model: () => import("./litellm_model/index.ts"),
  local_vllm_model: () => import("./local_vllm_model/index.ts"),
  local_vllm_model_proxy: () => import("./local_vllm_model_proxy/index.ts"),
  genrm_model: () => import("./genrm_model/index.ts"),
};

/** local_vllm_model: starts `vllm serve` with NeMo Gym's arguments (or uses `base_url` when set), then serves as vllm_model does. */
import type { Hono } from "hono";
import type { GymEnv } from "../../../servers/gym-app.ts";
import type { ServerFactory, ServerFactoryContext } from "../../../servers/registry.ts";
import { buildVllmModel, type VllmModelVariant } from "../vllm_model/index.ts";
import { freePort, launchVllm, requireVllm, type VllmProcess } from "./launch.ts";
import { vllmServeArgv, vllmServeEnv, type LocalVllmConfig } from "./serve-args.ts";

/** Where a proxy (local_vllm_model_proxy) finds this server's vLLM: `GET /get_inner_vllm_config`. */
export interface InnerVllmConfig {
  base_url: string[];
  api_key: string;
  model: string;
}

/**
 * The vllm_model app over a vLLM started here (or at the configured `base_url`), with `/get_inner_vllm_config`.
 * Without a `vllm` on PATH this refuses, naming vLLM and what to install, before anything is dispatched.
 */
export async function buildLocalVllmModel(block: Record<string, unknown>, context: ServerFactoryContext, variant: VllmModelVariant): Promise<{ app: Hono<GymEnv>; vllm?: VllmProcess }> {
  const config = block as unknown as LocalVllmConfig;
  const name = String(config.name ?? context.name);
  let vllm: VllmProcess | undefined;
  let baseUrl: string[];
  const configured = Array.isArray(config.base_url) ? config.base_url : config.base_url ? [config.base_url] : [];
  if (configured.length) {
    process.stderr.write(`External base_url configured for \`${name}\`: ${configured.join(", ")}. Skipping local vLLM launch.\n`);
    baseUrl = configured.map(String);
  } else {
    const executable = requireVllm(name);
    const port = await freePort();
    const cwd = process.cwd();
    const argv = vllmServeArgv(config, port, cwd);
    const hfToken = typeof context.globalConfig.hf_token === "string" ? context.globalConfig.hf_token : process.env.HF_TOKEN;
    const host = String(config.vllm_serve_kwargs?.host ?? "127.0.0.1");
    vllm = await launchVllm(executable, { name, argv, env: vllmServeEnv(config, process.env, hfToken, cwd), port, host, timeoutMs: (config.vllm_startup_timeout_s ?? 1800) * 1000, echo: !!(config.debug || config.show_vllm_engine_stats) });
    baseUrl = [vllm.baseUrl];
  }
  const inner: InnerVllmConfig = { base_url: baseUrl, api_key: String(config.api_key ?? "dummy"), model: config.model };
  const app = buildVllmModel({ ...block, base_url: baseUrl, api_key: inner.api_key }, variant, context.globalConfig);
  app.get("/get_inner_vllm_config", (c) => c.json(inner));
  return { app, vllm };
}

const factory: ServerFactory = async (block, context) => (await buildLocalVllmModel(block, context, { className: "LocalVLLMModel" })).app;

export default factory;

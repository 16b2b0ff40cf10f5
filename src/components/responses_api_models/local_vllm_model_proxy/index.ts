/** local_vllm_model_proxy: serves as vllm_model over the vLLM another server (a local_vllm_model) started, so one GPU deployment serves both. */
import { Hono } from "hono";
import { GymError } from "../../../errors.ts";
import { errorAnswer, type GymEnv } from "../../../servers/gym-app.ts";
import type { ServerFactory } from "../../../servers/registry.ts";
import { sessionCookieName } from "../../../servers/session.ts";
import type { InnerVllmConfig } from "../local_vllm_model/index.ts";
import { buildVllmModel } from "../vllm_model/index.ts";

export interface LocalVllmModelProxyConfig {
  name?: string;
  /** The local_vllm_model (or genrm_model) whose vLLM this server uses. */
  model_server: { type?: string; name: string };
  /** Gym extension: how long to wait for that server's vLLM (default 1800 s, as long as it may take to start). */
  vllm_startup_timeout_s?: number;
  /** Gym extension: how often to ask (default 10 s, as NeMo Gym polls). */
  poll_interval_s?: number;
}

const CLASS = "LocalVLLMModelProxyServer";

/**
 * The inner vllm_model is built on the first call, once the referenced server answers
 * `GET /get_inner_vllm_config` (NeMo Gym waits for it at startup; here creation order of servers does not matter).
 */
const factory: ServerFactory = (block, context) => {
  const config = block as unknown as LocalVllmModelProxyConfig;
  const name = String(config.name ?? context.name);
  const target = config.model_server?.name;
  if (!target) throw new GymError("E_CONFIG", `\`${name}\`: local_vllm_model_proxy needs \`model_server.name\`, the local_vllm_model whose vLLM it uses.`, { hint: `Set ++${name}.responses_api_models.local_vllm_model_proxy.model_server.name=<server name>.` });
  let inner: Promise<Hono<GymEnv>> | undefined;

  const resolve = async (): Promise<Hono<GymEnv>> => {
    const deadline = performance.now() + (config.vllm_startup_timeout_s ?? 1800) * 1000;
    let last = "";
    for (;;) {
      try {
        const reply = await context.servers.get(target).get("/get_inner_vllm_config");
        if (reply.ok) {
          const found = reply.json<InnerVllmConfig>();
          return buildVllmModel({ ...block, base_url: found.base_url, api_key: found.api_key, model: found.model }, { className: CLASS });
        }
        last = `answered ${reply.status}`;
      } catch (error) {
        if (error instanceof GymError && error.code !== "E_HTTP") throw error;
        last = (error as Error).message;
      }
      if (performance.now() > deadline) {
        throw new GymError("E_SERVER", `\`${name}\` waited for \`${target}\`'s vLLM (GET /get_inner_vllm_config) and gave up: ${last}`, { hint: `Check that \`${target}\` is a local_vllm_model and that its vLLM started.` });
      }
      process.stderr.write(`Waiting for LocalVLLMModel server \`${target}\` spinup (${last})\n`);
      await new Promise((done) => setTimeout(done, (config.poll_interval_s ?? 10) * 1000));
    }
  };

  const app = new Hono<GymEnv>();
  app.all("*", async (c) => {
    try {
      inner ??= resolve().catch((error) => {
        inner = undefined;
        throw error;
      });
      return (await inner).fetch(c.req.raw);
    } catch (error) {
      const answer = errorAnswer(error, sessionCookieName(CLASS, name));
      return c.json(answer.json, answer.status as 500);
    }
  });
  return app;
};

export default factory;

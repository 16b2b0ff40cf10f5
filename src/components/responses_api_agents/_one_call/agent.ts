/**
 * The one-model-call harnesses (non_executing_simple_agent, tool_simulation_agent; scicode_agent's per-step calls use
 * the same route): `/v1/responses` makes one model
 * call whose output, tool calls included, is the trajectory (nothing is run); `/run` sends the row's create params
 * there, then `/verify` (or the configured reward with skip_verification); `/aggregate_metrics` is the resources
 * server's.
 */
import { callRateLimited } from "../../../servers/rate-limited.ts";
import { checkResponseCreateParams, responseProblems, type JsonObject, type Response } from "../../../protocol/responses.ts";
import { dumpResponse } from "../../../protocol/responses-dump.ts";
import { buildVerifyRequest, checkRunRequest, dumpRunRow, orderRunResult, verifyResponseProblems } from "../../../protocol/run.ts";
import { createGymApp, forwardJson, validationFailure } from "../../../servers/gym-app.ts";
import { jsonRoute, routeJson } from "../../../servers/routes.ts";
import type { Hono } from "hono";
import type { ServerFactory, ServerFactoryContext } from "../../../servers/registry.ts";
import type { GymEnv } from "../../../servers/session.ts";
import { sessionCookieName } from "../../../servers/session.ts";
import type { SimpleAgentConfig } from "../simple_agent/index.ts";

/** simple_agent's settings without the tool loop (`max_steps` has nothing to bound). */
export type OneCallAgentConfig = Omit<SimpleAgentConfig, "max_steps">;

/** How an agent's `/v1/responses` calls the model (scicode_agent's loop uses the same route per step). */
export interface ModelCallOptions {
  /**
   * The cookies that reach `/v1/responses` are the resources server's (a session was seeded): the model call gets
   * none and they go back out for `/verify`. Otherwise the caller's cookies go to the model.
   */
  seedSession: boolean;
  /** A string prompt is sent as one user message, as simple_agent sends it. */
  promptAsMessages: boolean;
  /** The start of the error for a reply that is not a valid Response (each agent's wording in NeMo Gym). */
  invalidReply: string;
}

/** `/v1/responses`: one model call, its output (function calls included) the answer; nothing is run. */
export function addModelCallRoute(app: Hono<GymEnv>, context: ServerFactoryContext, config: { model_server: { name: string } }, options: ModelCallOptions): void {
  jsonRoute(app, "/v1/responses", async (request) => {
    const params = await routeJson<JsonObject>(request);
    const checked = checkResponseCreateParams(params);
    if (!checked.ok) throw validationFailure(checked.error);
    const input = options.promptAsMessages && typeof params.input === "string" ? [{ role: "user", content: params.input }] : params.input;
    const model = context.servers.get(config.model_server.name);
    const asked = options.promptAsMessages ? { ...params, input } : params;
    const { body, cookies } = await callRateLimited<Response>(model, "/v1/responses", asked, { cookies: options.seedSession ? {} : request.cookies(), readOnlyAnswer: true });
    if (responseProblems(body).length) throw new Error(`${options.invalidReply}: ${JSON.stringify(body)}`);
    if (options.seedSession) request.forwardCookies(request.cookies());
    request.forwardCookies(cookies);
    return { json: dumpResponse(body as unknown as JsonObject) };
  });
}

export interface OneCallAgentOptions extends ModelCallOptions {
  /** NeMo Gym's class name: the session cookie's and the verify response's validation error's. With `seedSession`, `/run` calls `/seed_session` first. */
  className: string;
}

export function oneCallAgent(options: OneCallAgentOptions): ServerFactory {
  return (block, context) => {
    const config = block as unknown as OneCallAgentConfig;
    const app = createGymApp({ cookieName: sessionCookieName(options.className, config.name), rolloutPrefix: "agent" });

    addModelCallRoute(app, context, config, options);

    jsonRoute(app, "/run", async (request) => {
      const body = await routeJson(request);
      const checked = checkRunRequest(body);
      if (!checked.ok) throw validationFailure(checked.error);
      const row = checked.value as JsonObject;
      // Dumped once: /seed_session, /verify and the skipped result all carry this dump (a dump passes through a dump).
      const dumpedRow = dumpRunRow(row);
      let cookies = request.cookies();
      if (options.seedSession) cookies = (await context.servers.get(config.resources_server.name).call("/seed_session", dumpedRow, { cookies, readOnlyAnswer: true })).cookies;
      const episode = await context.servers.get(config.name).call<JsonObject>("/v1/responses", row.responses_create_params, { cookies, readOnlyAnswer: true });
      if (config.skip_verification) {
        return { json: orderRunResult({ ...dumpedRow, response: episode.body, reward: Number(config.skip_verification_reward ?? 0), verification_skipped: true }) };
      }
      const resources = context.servers.get(config.resources_server.name);
      const verified = await resources.call<JsonObject>("/verify", buildVerifyRequest(dumpedRow, episode.body), { cookies: episode.cookies, readOnlyAnswer: true });
      const problems = verifyResponseProblems(verified.body);
      if (problems.length) throw new Error(`1 validation error for ${options.className}VerifyResponse: ${problems.slice(0, 3).join("; ")}`);
      return { json: orderRunResult(verified.body) };
    });

    app.post("/aggregate_metrics", (c) => forwardJson(c, context.servers.get(config.resources_server.name), "/aggregate_metrics"));

    return app;
  };
}

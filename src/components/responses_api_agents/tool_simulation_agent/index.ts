/**
 * tool_simulation_agent: one model call per rollout, then verify — for tasks whose tool results are simulated in the
 * prompt (NeMo Gym's `tool_simulation_agent`, e.g. swe_pivot). Unlike non_executing_simple_agent it does not seed a
 * session and sends the create params to the model as given.
 */
import { callRateLimited } from "../../../servers/rate-limited.ts";
import { checkResponseCreateParams, responseProblems, type JsonObject, type Response } from "../../../protocol/responses.ts";
import { dumpResponse } from "../../../protocol/responses-dump.ts";
import { buildVerifyRequest, checkRunRequest, dumpRunRow, orderRunResult, verifyResponseProblems } from "../../../protocol/run.ts";
import { createGymApp, forwardJson, validationFailure } from "../../../servers/gym-app.ts";
import { jsonRoute, routeJson } from "../../../servers/routes.ts";
import type { ServerFactory } from "../../../servers/registry.ts";
import { sessionCookieName } from "../../../servers/session.ts";
import type { SimpleAgentConfig } from "../simple_agent/index.ts";

/** simple_agent's settings without the tool loop. */
export type ToolSimulationAgentConfig = Omit<SimpleAgentConfig, "max_steps">;

const factory: ServerFactory = (block, context) => {
  const config = block as unknown as ToolSimulationAgentConfig;
  const app = createGymApp({ cookieName: sessionCookieName("ToolSimulationAgent", config.name), rolloutPrefix: "agent" });

  jsonRoute(app, "/v1/responses", async (request) => {
    const params = await routeJson<JsonObject>(request);
    const checked = checkResponseCreateParams(params);
    if (!checked.ok) throw validationFailure(checked.error);
    const model = context.servers.get(config.model_server.name);
    const { body, cookies } = await callRateLimited<Response>(model, "/v1/responses", params, { cookies: request.cookies(), readOnlyAnswer: true });
    if (responseProblems(body).length) throw new Error(`Received an invalid response from the model server: ${JSON.stringify(body)}`);
    request.forwardCookies(cookies);
    return { json: dumpResponse(body as unknown as JsonObject) };
  });

  jsonRoute(app, "/run", async (request) => {
    const body = await routeJson(request);
    const checked = checkRunRequest(body);
    if (!checked.ok) throw validationFailure(checked.error);
    const row = checked.value as JsonObject;
    const dumpedRow = dumpRunRow(row);
    const episode = await context.servers.get(config.name).call<JsonObject>("/v1/responses", row.responses_create_params, { cookies: request.cookies(), readOnlyAnswer: true });
    if (config.skip_verification) {
      return { json: orderRunResult({ ...dumpedRow, response: episode.body, reward: Number(config.skip_verification_reward ?? 0), verification_skipped: true }) };
    }
    const resources = context.servers.get(config.resources_server.name);
    const verified = await resources.call<JsonObject>("/verify", buildVerifyRequest(dumpedRow, episode.body), { cookies: episode.cookies, readOnlyAnswer: true });
    const problems = verifyResponseProblems(verified.body);
    if (problems.length) throw new Error(`1 validation error for ToolSimulationAgentVerifyResponse: ${problems.slice(0, 3).join("; ")}`);
    return { json: orderRunResult(verified.body) };
  });

  app.post("/aggregate_metrics", (c) => forwardJson(c, context.servers.get(config.resources_server.name), "/aggregate_metrics"));

  return app;
};

export default factory;

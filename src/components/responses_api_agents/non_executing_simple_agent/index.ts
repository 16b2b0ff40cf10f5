/** non_executing_simple_agent: seed → one model call (tool calls are returned, never run) → verify; a second composable harness. */
import { callRateLimited } from "../../../servers/rate-limited.ts";
import { checkResponseCreateParams, responseProblems, type JsonObject, type Response } from "../../../protocol/responses.ts";
import { dumpResponse } from "../../../protocol/responses-dump.ts";
import { buildVerifyRequest, checkRunRequest, dumpRunRow, orderRunResult, verifyResponseProblems } from "../../../protocol/run.ts";
import type { Cookies } from "../../../servers/cookies.ts";
import { createGymApp, forwardJson, validationFailure } from "../../../servers/gym-app.ts";
import { jsonRoute, routeJson } from "../../../servers/routes.ts";
import type { ServerFactory } from "../../../servers/registry.ts";
import { sessionCookieName } from "../../../servers/session.ts";
import type { SimpleAgentConfig } from "../simple_agent/index.ts";

/** The same settings as simple_agent, minus the tool loop (`max_steps` has nothing to bound). */
export type NonExecutingSimpleAgentConfig = Omit<SimpleAgentConfig, "max_steps">;

const factory: ServerFactory = (block, context) => {
  const config = block as unknown as NonExecutingSimpleAgentConfig;
  const app = createGymApp({ cookieName: sessionCookieName("NonExecutingSimpleAgent", config.name), rolloutPrefix: "agent" });

  // One model call: its output (function calls included) is the trajectory; nothing is sent to the resources server.
  jsonRoute(app, "/v1/responses", async (request) => {
    const params = await routeJson<JsonObject>(request);
    const checked = checkResponseCreateParams(params);
    if (!checked.ok) throw validationFailure(checked.error);
    // The prompt is sent as a message list, as simple_agent sends it, so both harnesses ask the model the same thing.
    const input = typeof params.input === "string" ? [{ role: "user", content: params.input }] : params.input;
    const model = context.servers.get(config.model_server.name);
    const { body, cookies } = await callRateLimited<Response>(model, "/v1/responses", { ...params, input }, { cookies: {}, readOnlyAnswer: true });
    if (responseProblems(body).length) throw new Error(`Received an invalid response from model server: ${JSON.stringify(body)}`);
    // The resources server's session cookies come in with the call and go back out for /verify.
    request.forwardCookies(request.cookies());
    request.forwardCookies(cookies);
    return { json: dumpResponse(body as unknown as JsonObject) };
  });

  jsonRoute(app, "/run", async (request) => {
    const body = await routeJson(request);
    const checked = checkRunRequest(body);
    if (!checked.ok) throw validationFailure(checked.error);
    const row = checked.value as JsonObject;
    const resources = context.servers.get(config.resources_server.name);
    // Dumped once: /seed_session, /verify and the skipped result all carry this dump (a dump passes through a dump).
    const dumpedRow = dumpRunRow(row);
    const seeded = await resources.call("/seed_session", dumpedRow, { cookies: request.cookies(), readOnlyAnswer: true });
    const episode = await context.servers.get(config.name).call<JsonObject>("/v1/responses", row.responses_create_params, { cookies: seeded.cookies, readOnlyAnswer: true });
    if (config.skip_verification) {
      return { json: orderRunResult({ ...dumpedRow, response: episode.body, reward: Number(config.skip_verification_reward ?? 0), verification_skipped: true }) };
    }
    const verified = await resources.call<JsonObject>("/verify", buildVerifyRequest(dumpedRow, episode.body), { cookies: episode.cookies, readOnlyAnswer: true });
    const problems = verifyResponseProblems(verified.body);
    if (problems.length) throw new Error(`1 validation error for NonExecutingSimpleAgentVerifyResponse: ${problems.slice(0, 3).join("; ")}`);
    return { json: orderRunResult(verified.body) };
  });

  app.post("/aggregate_metrics", (c) => forwardJson(c, context.servers.get(config.resources_server.name), "/aggregate_metrics"));

  return app;
};

export default factory;

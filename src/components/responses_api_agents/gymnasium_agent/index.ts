/** gymnasium_agent: reset → (model turn → step)* against a Gymnasium-style resources server, rewards summed (§2.7). */
import { checkResponseCreateParams, responseProblems, type JsonObject, type Response } from "../../../protocol/responses.ts";
import { accumulateUsage, dumpResponse, dumpResponseCreateParams } from "../../../protocol/responses-dump.ts";
import { checkRunRequest, dumpRunRow } from "../../../protocol/run.ts";
import { requestCookies, type Cookies } from "../../../servers/cookies.ts";
import { createGymApp, forwardJson, readJson, validationFailure } from "../../../servers/gym-app.ts";
import type { ServerFactory } from "../../../servers/registry.ts";
import { sessionCookieName } from "../../../servers/session.ts";

export interface GymnasiumAgentConfig {
  name: string;
  resources_server: { type: string; name: string };
  model_server: { type: string; name: string };
  /** Model turns per episode (default 10); an episode that has not ended by then is reported truncated. */
  max_steps?: number;
}

interface StepResult {
  observation?: string | null;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  info?: JsonObject | null;
}

const factory: ServerFactory = (block, context) => {
  const config = block as unknown as GymnasiumAgentConfig;
  const maxSteps = config.max_steps ?? 10;
  const app = createGymApp({ cookieName: sessionCookieName("GymnasiumAgent", config.name), rolloutPrefix: "agent" });
  const model = () => context.servers.get(config.model_server.name);
  const env = () => context.servers.get(config.resources_server.name);

  app.post("/v1/responses", async (c) => {
    const params = await readJson<JsonObject>(c);
    const checked = checkResponseCreateParams(params);
    if (!checked.ok) throw validationFailure(checked.error);
    const { body, cookies } = await model().call<JsonObject>("/v1/responses", params, { cookies: requestCookies(c.req.header("cookie")) });
    for (const [name, value] of Object.entries(cookies)) c.header("set-cookie", `${name}=${value}; Path=/; SameSite=lax`, { append: true });
    return c.json(dumpResponse(body));
  });

  app.post("/run", async (c) => {
    const checked = checkRunRequest(await readJson(c));
    if (!checked.ok) throw validationFailure(checked.error);
    const row = dumpRunRow(checked.value);
    const envCookies: Cookies = requestCookies(c.req.header("cookie"));
    const reset = await env().call<{ observation?: string | null; info?: JsonObject | null }>("/reset", row, { cookies: envCookies });
    Object.assign(envCookies, reset.cookies);
    const closable = reset.body.info?.supports_explicit_close === true;
    try {
      const result = await episode(checked.value.responses_create_params as unknown as JsonObject, row, reset.body, envCookies);
      if (closable) await env().call("/close", {}, { cookies: envCookies });
      return c.json(result);
    } catch (error) {
      if (closable) await env().call("/close", {}, { cookies: envCookies }).catch(() => undefined);
      throw error;
    }
  });

  const episode = async (params: JsonObject, row: JsonObject, reset: { observation?: string | null; info?: JsonObject | null }, envCookies: Cookies) => {
    const input: JsonObject[] = typeof params.input === "string" ? [{ role: "user", content: params.input }] : [...(params.input as JsonObject[])];
    if (reset.observation) input.push({ role: "user", content: reset.observation });
    const base = { ...params, input };
    const added: JsonObject[] = [];
    let total = 0;
    let usage = null;
    let modelCookies: Cookies = {};
    let last: Response | undefined;
    let step: StepResult = { reward: 0, terminated: false, truncated: true, info: {} };
    let finished = false;
    for (let i = 0; i < maxSteps; i++) {
      const turn = await model().call<Response>("/v1/responses", { ...base, input: [...input, ...added] }, { cookies: modelCookies });
      modelCookies = turn.cookies;
      if (responseProblems(turn.body).length) throw new Error(`Received an invalid response from model server: ${JSON.stringify(turn.body)}`);
      last = turn.body;
      added.push(...(last.output as unknown as JsonObject[]));
      usage = accumulateUsage(usage, last.usage);
      const stepBody: JsonObject = { ...row, response: dumpResponse(last) };
      if (reset.info?.supports_step_idempotency === true) stepBody._ng_step_request_id = crypto.randomUUID().replaceAll("-", "");
      const stepped = await env().call<StepResult>("/step", stepBody, { cookies: envCookies });
      step = stepped.body;
      total += Number(step.reward ?? 0);
      Object.assign(envCookies, stepped.cookies);
      if (step.terminated || step.truncated) {
        finished = true;
        break;
      }
      for (const out of ((step.info?.tool_outputs as JsonObject[] | undefined) ?? [])) {
        added.push({ call_id: out.call_id, output: out.output, type: "function_call_output" });
      }
      if (step.observation) added.push({ role: "user", content: step.observation });
    }
    return {
      responses_create_params: dumpResponseCreateParams(base),
      response: dumpResponse({ ...last!, output: added, usage }),
      reward: total,
      terminated: !!step.terminated,
      truncated: finished ? !!step.truncated : true,
      info: step.info ?? {},
    };
  };

  app.post("/aggregate_metrics", (c) => forwardJson(c, env(), "/aggregate_metrics"));

  return app;
};

export default factory;

/** simple_agent: seed → model/tool loop → verify, talking to its model and resources servers only through ServerClient (protocol.md §4). */
import { callRateLimited } from "../../../servers/rate-limited.ts";
import { checkResponseCreateParams, responseProblems, type FunctionCall, type JsonObject, type Response } from "../../../protocol/responses.ts";
import { accumulateUsage, dumpResponse } from "../../../protocol/responses-dump.ts";
import { buildVerifyRequest, checkRunRequest, dumpRunRow, orderRunResult, verifyResponseProblems } from "../../../protocol/run.ts";
import { createGymApp, forwardJson, readJson, validationFailure } from "../../../servers/gym-app.ts";
import { callOwnRoute, jsonRoute, routeJson, setCookiesOfJar, type HeldCookies, type RouteRequest } from "../../../servers/routes.ts";
import { RolloutCalls } from "../../../servers/rollout-calls.ts";
import { InProcessServerClient } from "../../../servers/in-process.ts";
import { isPlainJson } from "../../../servers/plain-json.ts";
import { isSimpleJar, type Cookies } from "../../../servers/cookies.ts";
import { copyJar } from "../../../servers/lazy-cookies.ts";
import { pythonExceptionRepr } from "../../../servers/python-repr.ts";
import type { ServerFactory, ServerFactoryContext } from "../../../servers/registry.ts";
import { sessionCookieName } from "../../../servers/session.ts";
import { finishTrajectory, TrajectoryRecorder } from "./trajectory.ts";

/** The agent-internal key the trajectory travels under from /v1/responses to /run (popped there, as in NeMo Gym). */
const TRAJECTORY_KEY = "_ng_trajectory";
const ROLLOUT_PATH = /^\/ng-rollout\/([A-Za-z0-9][A-Za-z0-9._:-]*)\//;

/** A rollout's id from its row: `<task>-<rollout>` (the collector's identity), else unscoped. */
const rolloutIdOf = (row: JsonObject): string | undefined =>
  row._ng_task_index === undefined || row._ng_task_index === null ? undefined : `${row._ng_task_index}-${row._ng_rollout_index ?? 0}`;

export interface ServerRef {
  type: string;
  name: string;
}

export interface SimpleAgentConfig {
  name: string;
  resources_server: ServerRef;
  model_server: ServerRef;
  /** Bound on model calls per rollout; null/0 = unlimited. */
  max_steps?: number | null;
  skip_verification?: boolean;
  skip_verification_reward?: number;
}

/** Python's `json.dumps` default separators and ASCII escaping, for the one tool output the agent writes itself. */
function pythonJsonDumps(value: Record<string, string>): string {
  const body = Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(", ");
  return `{${body}}`.replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Sets cookies on the agent's own answer, as FastAPI's `response.set_cookie(k, v)` does. */
function forwardCookies(request: RouteRequest, ...jars: Cookies[]): void {
  for (const jar of jars) request.forwardCookies(jar);
}

/** The agent loop over already-validated params; returns the last model response carrying the whole trajectory. */
export async function runEpisode(
  params: JsonObject,
  config: SimpleAgentConfig,
  context: ServerFactoryContext,
  resourcesCookies: Cookies,
  trace?: TrajectoryRecorder,
  /** The servers come from a RolloutCalls that keeps the cookies: none are passed or read here (the jars returned are empty). */
  cookiesKept = false,
): Promise<{ response: JsonObject; modelCookies: Cookies; resourcesCookies: Cookies }> {
  const model = context.servers.get(config.model_server.name);
  const resources = context.servers.get(config.resources_server.name);
  if (cookiesKept) resourcesCookies = {};
  const prompt = typeof params.input === "string" ? [{ role: "user", content: params.input }] : (params.input as JsonObject[]);
  const added: JsonObject[] = [];
  let usage = null;
  let modelCookies: Cookies = {};
  let last: Response;
  for (let step = 1; ; step++) {
    // A rate-limited model is waited out (Retry-After honoured), not turned into a failed rollout.
    const request = { ...params, input: [...prompt, ...added] };
    const timing = trace?.modelCall(request);
    const answer = await callRateLimited<Response>(model, "/v1/responses", request, { cookies: cookiesKept ? undefined : modelCookies, readOnlyAnswer: true });
    const body = answer.body;
    if (!cookiesKept) modelCookies = answer.cookies;
    const problems = responseProblems(body);
    if (problems.length) throw new Error(`Received an invalid response from model server: ${JSON.stringify(body)}`);
    timing?.done(body, step);
    last = body;
    added.push(...(body.output as unknown as JsonObject[]));
    usage = accumulateUsage(usage, body.usage);
    // A stopped generation ends the episode; its tool calls are not executed.
    if (body.incomplete_details) {
      if (trace) trace.status = "incomplete";
      break;
    }
    const calls = body.output.filter((item): item is FunctionCall => item.type === "function_call");
    const messages = body.output.filter((item) => item.type === "message" && (item as JsonObject).role === "assistant");
    if (calls.length === 0 && messages.length > 0) break;
    for (const call of calls) {
      const tool = trace?.toolCall(call.call_id, call.name);
      let failure: string | undefined;
      let output: string;
      let args: unknown;
      let parsed = true;
      try {
        args = JSON.parse(call.arguments);
      } catch (error) {
        parsed = false;
        failure = "JSONDecodeError";
        output = pythonJsonDumps({ error: `Invalid tool call arguments: ${pythonExceptionRepr(Object.assign(error as Error, { name: "JSONDecodeError" }))}` });
      }
      if (parsed) {
        // Tool failures (404, 422, 500) are model-visible text, not errors; arguments of null send no body.
        const reply = await resources.request(`/${call.name}`, { method: "POST", json: args === null ? undefined : args, cookies: cookiesKept ? undefined : resourcesCookies });
        output = reply.text;
        if (!cookiesKept) resourcesCookies = reply.cookies;
        if (reply.status >= 400) failure = `http_${reply.status}`;
      }
      tool?.done(output!, failure);
      added.push({ call_id: call.call_id, output: output!, type: "function_call_output" });
    }
    if (config.max_steps && step >= config.max_steps) {
      if (trace) trace.status = "incomplete";
      break;
    }
  }
  const response: JsonObject = { ...last!, output: added, usage };
  if (trace) response[TRAJECTORY_KEY] = trace.record([...prompt, ...added]);
  return { response, modelCookies, resourcesCookies };
}

const factory: ServerFactory = (block, context) => {
  const config = block as unknown as SimpleAgentConfig;
  const app = createGymApp({ cookieName: sessionCookieName("SimpleAgent", config.name), rolloutPrefix: "agent" });
  // NeMo Gym's observability switch: each rollout row then carries its ng_trajectory.
  const capture = context.globalConfig?.observability_enabled === true;

  /** /v1/responses' work: the answer and the jars it sets as cookies (the resources server's, then the model's). */
  const respond = async (params: JsonObject, cookies: Cookies, rolloutId: string | undefined, calls?: RolloutCalls): Promise<{ json: JsonObject; forwarded: HeldCookies[] }> => {
    const checked = checkResponseCreateParams(params);
    if (!checked.ok) throw validationFailure(checked.error);
    const trace = rolloutId ? new TrajectoryRecorder(config.model_server, rolloutId) : undefined;
    const episode = await runEpisode(params, config, calls ? { ...context, servers: calls } : context, cookies, trace, calls !== undefined);
    const forwarded: HeldCookies[] = calls
      ? [calls.cookiesOf(config.resources_server.name), calls.cookiesOf(config.model_server.name)]
      : [episode.resourcesCookies, episode.modelCookies];
    // Without the key, the rest is the response itself (same keys, same order): no copy to dump from.
    if (!(TRAJECTORY_KEY in episode.response)) return { json: dumpResponse(episode.response), forwarded };
    const { [TRAJECTORY_KEY]: trajectory, ...rest } = episode.response;
    return { json: trajectory ? { ...dumpResponse(rest), [TRAJECTORY_KEY]: trajectory } : dumpResponse(rest), forwarded };
  };

  // Both routes only read what they are handed (the caller's row and params); they build new objects to send on.
  jsonRoute(app, "/v1/responses", async (request) => {
    const params = await routeJson<JsonObject>(request);
    const rolloutId = capture ? ROLLOUT_PATH.exec(request.rawPath)?.[1] : undefined;
    const answer = await respond(params, request.cookies(), rolloutId);
    forwardCookies(request, ...(answer.forwarded as Cookies[]));
    return { json: answer.json };
  });

  /**
   * /run's call of this agent's own /v1/responses: a function call when this process serves it in-process, its
   * model and tool calls then keeping their cookies in the rollout's state (`calls`).
   */
  const callSelf = (path: string, params: JsonObject, seeded: () => Cookies, calls: RolloutCalls | undefined) => {
    const rolloutId = capture ? ROLLOUT_PATH.exec(path)?.[1] : undefined;
    if (calls && isPlainJson(params)) {
      return callOwnRoute<JsonObject>(app, config.name, path, calls.cookiesOf(config.resources_server.name), () => respond(params, {}, rolloutId, calls));
    }
    const self = context.servers.get(config.name);
    const cookies = seeded();
    if (self instanceof InProcessServerClient && self.servesDirect(app) && isPlainJson(params) && isSimpleJar(cookies)) {
      return callOwnRoute<JsonObject>(app, config.name, path, cookies, () => respond(params, copyJar(cookies), rolloutId));
    }
    return self.call<JsonObject>(path, params, { cookies, readOnlyAnswer: true });
  };

  jsonRoute(app, "/run", async (request) => {
    const body = await routeJson(request);
    const checked = checkRunRequest(body);
    if (!checked.ok) throw validationFailure(checked.error);
    const row = checked.value as JsonObject;
    // One state for the rollout's cookies when this agent serves itself in-process (its /v1/responses is then a
    // function call, and the servers' cookies need no jars between hops); else a jar per server, as over HTTP.
    const self = context.servers.get(config.name);
    const calls = self instanceof InProcessServerClient && self.servesDirect(app) ? new RolloutCalls(context.servers) : undefined;
    const resourcesName = config.resources_server.name;
    const resources = calls ? calls.get(resourcesName) : context.servers.get(resourcesName);
    // Dumped once: /seed_session, /verify and the skipped result all carry this dump (a dump passes through a dump).
    const dumpedRow = dumpRunRow(row);
    calls?.start(resourcesName, request.cookies());
    const seeded = await resources.call("/seed_session", dumpedRow, { cookies: calls ? undefined : request.cookies(), readOnlyAnswer: true });
    const rolloutId = capture ? rolloutIdOf(row) : undefined;
    const path = rolloutId ? `/ng-rollout/${rolloutId}/v1/responses` : "/v1/responses";
    const answered = await callSelf(path, row.responses_create_params as JsonObject, () => seeded.cookies, calls);
    // /verify is sent what the agent's own answer set: the resources server's and the model's cookies, then its own.
    if (calls) calls.keep(resourcesName, "sent" in answered ? answered.sent : setCookiesOfJar(answered.cookies));
    let trajectory: unknown;
    let response = answered.body;
    if (TRAJECTORY_KEY in response) {
      const { [TRAJECTORY_KEY]: popped, ...rest } = response;
      trajectory = popped;
      if (trajectory) response = rest;
    }
    const episode = { body: response };
    const withTrajectory = (result: JsonObject, verified?: JsonObject) =>
      trajectory && rolloutId ? { ...result, ng_trajectory: finishTrajectory(trajectory as JsonObject, row, rolloutId, verified) } : result;
    if (config.skip_verification) {
      const skipped = { ...dumpedRow, response: episode.body, reward: Number(config.skip_verification_reward ?? 0), verification_skipped: true };
      return { json: withTrajectory(orderRunResult(skipped)) };
    }
    const verified = await resources.call<JsonObject>("/verify", buildVerifyRequest(dumpedRow, episode.body), { cookies: calls ? undefined : answered.cookies, readOnlyAnswer: true });
    const problems = verifyResponseProblems(verified.body);
    if (problems.length) throw new Error(`1 validation error for SimpleAgentVerifyResponse: ${problems.slice(0, 3).join("; ")}`);
    return { json: withTrajectory(orderRunResult(verified.body), verified.body) };
  });

  app.post("/aggregate_metrics", async (c) => {
    if (config.skip_verification) {
      await readJson(c);
      return c.json({ group_level_metrics: [], agent_metrics: {}, key_metrics: {} });
    }
    return forwardJson(c, context.servers.get(config.resources_server.name), "/aggregate_metrics");
  });

  return app;
};

export default factory;

/** defineResourcesServer: one resources server (verifier) as a Hono app that speaks NeMo Gym's protocol (protocol.md §2.1, §2.3, §2.7). */
import type { Context, Hono } from "hono";
import { GymError } from "../../errors.ts";
import type { JsonObject } from "../../protocol/responses.ts";
import { dumpResponse, dumpResponseCreateParams } from "../../protocol/responses-dump.ts";
import { JUDGE_FAILED, notAnObjectError, verifyEnvelopeIssues, type FastApiErrorEntry, type ReverifyMode } from "../../protocol/verify.ts";
import { createGymApp, HttpFailure, type GymEnv } from "../gym-app.ts";
import { pyFloat } from "../../metrics/pyjson.ts";
import { pyJson } from "./json.ts";
import { jsonRoute, type RouteRequest } from "../routes.ts";
import { aggregateRoute, type MetricsHooks } from "./metrics.ts";
import { modelJsonSchema, validateModel, type ModelSpec } from "./fields.ts";
import { sessionCookieName } from "../session.ts";
import type { ServerDirectory } from "../client.ts";

export { py, type Field, type ModelSpec } from "./fields.ts";
export type { MetricsHooks, RolloutTasks } from "./metrics.ts";

/** What every handler receives besides its body. */
export interface ServerContext<Config, State> {
  /** The server's config block, checked against `config` (declared keys coerced, other keys as given). */
  config: Config;
  /** State shared by every request to this app (e.g. per-session counters keyed by `sessionId`). */
  state: State;
  /** The caller's session id, from this server's signed session cookie (new UUID4 on first sight). */
  sessionId: string;
  /** The `<id>` of an `/ng-rollout/<id>/…` path prefix, when the caller sent one. */
  rolloutId: string | undefined;
}

/** What `createState` receives besides the config: peers by instance name (a judge model server, say). */
export interface ServerSetup {
  /** This server's instance name. */
  name: string;
  /** Other servers by instance name, resolved per call (an app made outside a registry has none: `get` throws). */
  servers: ServerDirectory;
}

type Awaitable<T> = T | Promise<T>;

export interface VerifyDefinition<Config, State> {
  /** Declared request fields besides `responses_create_params` and `response`. */
  request?: ModelSpec;
  /**
   * Declared response fields after `reward`, in order. Values come from the handler's result, else from the
   * request; undeclared request fields are dropped, as pydantic drops them.
   */
  response?: readonly string[];
  /** The response model allows extra keys: every other request field follows, in order (equivalence_rule). */
  echoExtra?: boolean;
  /** Scores one rollout. `body` holds the raw params/response and the checked declared fields. */
  handler(body: JsonObject, ctx: ServerContext<Config, State>): Awaitable<JsonObject & { reward: number }>;
}

export interface ToolDefinition<Config, State> {
  /** The tool's argument model; omit for a tool that takes no body (the body is then not read). */
  request?: ModelSpec;
  handler(body: JsonObject, ctx: ServerContext<Config, State>): Awaitable<unknown>;
}

/** Gymnasium-style servers (gymnasium_agent): `/reset` and `/step` replace `/verify` and `/seed_session`. */
export interface GymnasiumDefinition<Config, State> {
  reset?(metadata: JsonObject, ctx: ServerContext<Config, State>): Awaitable<{ observation: string | null; info: JsonObject }>;
  step(
    action: JsonObject,
    metadata: JsonObject,
    ctx: ServerContext<Config, State>,
  ): Awaitable<{ observation: string | null; reward: number; terminated: boolean; truncated: boolean; info: JsonObject }>;
  /** Called after a step that terminated or truncated the episode. */
  closeSession?(ctx: ServerContext<Config, State>): Awaitable<void>;
}

export interface ResourcesServerDefinition<Config extends JsonObject, State> extends MetricsHooks<Config> {
  /** Implementation name, the folder under `resources_servers/` (e.g. `mcqa`). */
  name: string;
  /** The Python class name: with the instance name it makes the session cookie name (`<Class>___<instance>`). */
  className: string;
  /** `GET /reverify_mode`; NeMo Gym's default is `unknown`. */
  reverifyMode?: ReverifyMode;
  /** The config block's declared keys (e.g. mcqa `grading_mode`); checked when the app is created. */
  config?: ModelSpec;
  /** Per-app state, made once per app. */
  createState?(config: Config, setup: ServerSetup): State;
  verify?: VerifyDefinition<Config, State>;
  seedSession?: { request?: ModelSpec; handler?(body: JsonObject, ctx: ServerContext<Config, State>): Awaitable<JsonObject | void> };
  tools?: Record<string, ToolDefinition<Config, State>>;
  gymnasium?: GymnasiumDefinition<Config, State>;
}

/** Makes a resources server's Hono app from its config block (`ServerFactory` of the catalog); carries its definition. */
export type ResourcesServerFactory = ((block?: JsonObject, context?: { name?: string; servers?: ServerDirectory }) => Hono<GymEnv>) & { definition: ResourcesServerDefinition<any, any> };

/**
 * The task-data JSON Schema of a server: the row fields its `/seed_session` and `/verify` declare (what a dataset
 * row must carry besides responses_create_params), or undefined when it declares none.
 */
export function taskDataSchema(def: ResourcesServerDefinition<any, any>): ReturnType<typeof modelJsonSchema> | undefined {
  const schema = modelJsonSchema([def.seedSession?.request, def.verify?.request]);
  return Object.keys(schema.properties).length > 0 ? schema : undefined;
}

const NO_PEERS: ServerDirectory = {
  get(name) {
    throw new GymError("E_SERVER", `No server instance named '${name}' is reachable from this resources server (it was created outside a configured environment).`, {
      hint: "Run it through `gym eval run` / `gym env start` with a config that defines the instance.",
    });
  },
};

/** A judge call failed: `/verify` answers 200 with reward 0 and `_ng_failure_class: "judge_failed"`. */
export class JudgeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JudgeError";
  }
}

/** Awaits a judge call; any failure becomes a JudgeError whose message is `<ErrorName>: <message>`. */
export async function reraiseJudgeErrors<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof JudgeError) throw error;
    const e = error instanceof Error ? error : new Error(String(error));
    throw new JudgeError(`${e.name}: ${e.message}`);
  }
}

const ROLLOUT_PREFIX = /^\/ng-rollout\/([A-Za-z0-9][A-Za-z0-9._-]*)\//;

/** Declares a resources server; the result builds one app per config block. */
export function defineResourcesServer<Config extends JsonObject = JsonObject, State = undefined>(
  def: ResourcesServerDefinition<Config, State>,
): ResourcesServerFactory {
  const factory = (block: JsonObject = {}, context: { name?: string; servers?: ServerDirectory } = {}) => {
    const instanceName = context.name ?? (typeof block.name === "string" ? block.name : def.name);
    const config = checkConfig(def, instanceName, block);
    const state = def.createState ? def.createState(config, { name: instanceName, servers: context.servers ?? NO_PEERS }) : (undefined as State);
    const app = createGymApp({ cookieName: sessionCookieName(def.className, instanceName), rolloutPrefix: "resources" });
    const ctxOf = (c: Context<GymEnv>): ServerContext<Config, State> => ({
      config,
      state,
      sessionId: c.get("session").session_id,
      get rolloutId() {
        const url = c.req.url;
        return ROLLOUT_PREFIX.exec(url.slice(url.indexOf("/", url.indexOf("://") + 3)))?.[1];
      },
    });
    const routeCtx = (request: RouteRequest): ServerContext<Config, State> => ({
      config,
      state,
      // Read on demand: an in-process call whose handler never asks starts no session until its cookie is read.
      get sessionId() {
        return request.session.session_id;
      },
      get rolloutId() {
        return ROLLOUT_PREFIX.exec(request.rawPath)?.[1];
      },
    });

    if (def.gymnasium) addGymnasiumRoutes(app, def.gymnasium, ctxOf);
    else {
      const seed = def.seedSession;
      jsonRoute(app, "/seed_session", async (request) => {
        const body = await readObject(request);
        const checked = seed?.request ? checkModel(seed.request, body) : body;
        const out = seed?.handler ? await seed.handler(checked, routeCtx(request)) : undefined;
        return { json: out ?? {} };
      });
      if (def.verify) jsonRoute(app, "/verify", async (request) => ({ json: await runVerify(def.verify!, await readObject(request), routeCtx(request)), py: true }));
      app.get("/reverify_mode", (c) => c.json(def.reverifyMode ?? "unknown"));
    }
    for (const [toolName, tool] of Object.entries(def.tools ?? {})) {
      app.post(`/${toolName}`, async (c) => {
        const body = tool.request ? checkModel(tool.request, await readObject(honoBody(c))) : {};
        return pyJson(c, (await tool.handler(body, ctxOf(c))) as JsonObject);
      });
    }
    app.post("/aggregate_metrics", aggregateRoute(def, config));
    return app;
  };
  return Object.assign(factory, { definition: def as ResourcesServerDefinition<any, any> });
}

function checkConfig<Config extends JsonObject>(def: ResourcesServerDefinition<Config, unknown>, instance: string, block: JsonObject): Config {
  if (!def.config) return block as Config;
  const { value, issues } = validateModel(def.config, block, [instance, "resources_servers", def.name]);
  if (issues.length > 0) {
    const first = issues[0]!;
    throw new GymError("E_CONFIG", `Invalid config for resources server '${instance}' at ${first.loc.join(".")}: ${first.msg} (got ${JSON.stringify(first.input)}).`, {
      hint: `Fix ${first.loc.join(".")} in the YAML config (or the override that sets it).`,
    });
  }
  return { ...block, ...value } as Config;
}

/** A Hono request's body, for `readObject`. */
function honoBody(c: Context<GymEnv>): Pick<RouteRequest, "handed" | "text"> {
  return { handed: undefined, text: () => c.req.text() };
}

/**
 * The JSON body as an object; FastAPI's 422 shapes for an empty, malformed or non-object body. A handed
 * object is the caller's: handlers read it and build their own objects, never changing it.
 */
async function readObject(request: Pick<RouteRequest, "handed" | "text">): Promise<JsonObject> {
  let body: unknown;
  if (request.handed) body = request.handed.value;
  else {
    const text = await request.text();
    if (text.trim() === "") throw new HttpFailure(422, [{ type: "missing", loc: ["body"], msg: "Field required", input: null }]);
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw new HttpFailure(422, [{ type: "json_invalid", loc: ["body", 0], msg: "JSON decode error", input: {}, ctx: { error: (error as Error).message } }]);
    }
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new HttpFailure(422, notAnObjectError(body).detail);
  return body as JsonObject;
}

function checkModel(spec: ModelSpec, body: JsonObject, envelope: FastApiErrorEntry[] = []): JsonObject {
  const { value, issues } = validateModel(spec, body);
  if (envelope.length > 0 || issues.length > 0) throw new HttpFailure(422, [...envelope, ...issues]);
  return value;
}

/** The request as `model_dump()` writes it: full Responses dumps, declared fields (defaults filled), extras. */
function dumpRequest(raw: JsonObject, declared: JsonObject): JsonObject {
  return {
    responses_create_params: dumpResponseCreateParams(raw.responses_create_params as JsonObject),
    response: dumpResponse(raw.response as JsonObject),
    ...declared,
  };
}

async function runVerify<Config, State>(def: VerifyDefinition<Config, State>, raw: JsonObject, ctx: ServerContext<Config, State>): Promise<JsonObject> {
  const declared = checkModel(def.request ?? { fields: {} }, raw, verifyEnvelopeIssues(raw));
  const body: JsonObject = { responses_create_params: raw.responses_create_params, response: raw.response, ...declared };
  let result: JsonObject & { reward: number };
  try {
    result = await def.handler(body, ctx);
  } catch (error) {
    if (!(error instanceof JudgeError)) throw error;
    return { ...dumpRequest(raw, declared), reward: pyFloat(0), _ng_failure_class: JUDGE_FAILED, _ng_failure_judge_error: error.message };
  }
  const kwargs: JsonObject = { ...dumpRequest(raw, declared), ...result };
  const out: JsonObject = { responses_create_params: kwargs.responses_create_params, response: kwargs.response, reward: pyFloat(Number(result.reward)) };
  for (const key of def.response ?? []) out[key] = Object.hasOwn(kwargs, key) ? kwargs[key] : null;
  if (def.echoExtra) for (const key in kwargs) if (!Object.hasOwn(out, key)) out[key] = kwargs[key];
  return out;
}

function addGymnasiumRoutes<Config, State>(
  app: Hono<GymEnv>,
  gym: GymnasiumDefinition<Config, State>,
  ctxOf: (c: Context<GymEnv>) => ServerContext<Config, State>,
): void {
  const metadataOf = (body: JsonObject, skip: string[]) => {
    const out: JsonObject = {};
    for (const key in body) if (!skip.includes(key)) out[key] = body[key];
    return out;
  };
  app.post("/reset", async (c) => {
    const body = await readObject(honoBody(c));
    checkModel({ fields: {} }, body, verifyEnvelopeIssues(body, false));
    const ctx = ctxOf(c);
    const out = gym.reset ? await gym.reset(metadataOf(body, ["responses_create_params"]), ctx) : { observation: null, info: {} };
    return c.json({ observation: out.observation ?? null, info: out.info ?? {} });
  });
  app.post("/step", async (c) => {
    const body = await readObject(honoBody(c));
    checkModel({ fields: {} }, body, verifyEnvelopeIssues(body));
    const ctx = ctxOf(c);
    const out = await gym.step(body.response as JsonObject, metadataOf(body, ["responses_create_params", "response"]), ctx);
    if ((out.terminated || out.truncated) && gym.closeSession) await gym.closeSession(ctx);
    return pyJson(c, { observation: out.observation ?? null, reward: pyFloat(Number(out.reward)), terminated: out.terminated, truncated: out.truncated, info: out.info ?? {} });
  });
}

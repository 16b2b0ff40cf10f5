/** The frame every built-in server shares: liveness, sessions, rollout-prefix stripping and Python-shaped errors (§2.1). */
import { Hono, type Context } from "hono";
import type { FastApiErrorBody } from "../protocol/fastapi-errors.ts";
import { isServerCallError, ServerCallError, type ServerClient } from "./client.ts";
import { pythonBytesRepr, pythonExceptionRepr } from "./python-repr.ts";
import { SessionSigner, sessionMiddleware, type GymEnv } from "./session.ts";
import type { RouteHandler } from "./routes.ts";
import { callScopeMiddleware } from "./calls/cache/index.ts";
import { modelApiMiddleware } from "./model-api/index.ts";

export type { GymEnv } from "./session.ts";

export interface GymAppOptions {
  /** Session cookie name, `<PythonClassName>___<instanceName>` (see `sessionCookieName`). */
  cookieName: string;
  /**
   * Which rollout prefixes to strip before routing: `resources` strips `/ng-rollout/<id>`; `model` also strips a
   * following `/training-token-capture`; `agent` does both, but only in front of `/v1/responses`.
   */
  rolloutPrefix?: "resources" | "model" | "agent" | "none";
  /**
   * A model server: also answer streaming Responses/Chat calls and Anthropic Messages (`/v1/messages`) from its
   * own non-streaming routes (model-api/), as every NeMo Gym model server does.
   */
  modelApi?: boolean;
}

/** Raised by handlers to answer with a status and a FastAPI-style `{"detail": …}` body (HTTPException). */
export class HttpFailure extends Error {
  readonly status: number;
  readonly detail: unknown;
  constructor(status: number, detail: unknown) {
    super(typeof detail === "string" ? detail : JSON.stringify(detail));
    this.status = status;
    this.detail = detail;
  }
}

const ROLLOUT_ID = String.raw`[A-Za-z0-9][A-Za-z0-9._-]*`;
const PREFIXES = {
  resources: new RegExp(`^/ng-rollout/${ROLLOUT_ID}(?=/)`),
  model: /^\/ng-rollout\/[^/]+(?:\/training-token-capture)?(?=\/)/,
  agent: /^\/ng-rollout\/[^/]+(?:\/training-token-capture)?(?=\/v1\/responses$)/,
};

/** What in-process direct calls need to serve a Gym app without Hono (see routes.ts). */
export interface GymAppMeta {
  cookieName: string;
  prefix: RegExp | undefined;
  signer: SessionSigner;
  /** JSON routes (POST) registered with `jsonRoute`, by path. */
  routes: Map<string, RouteHandler>;
}

const META = new WeakMap<object, GymAppMeta>();

/** The Gym frame of an app made by `createGymApp` (undefined for any other app). */
export function gymAppMeta(app: object): GymAppMeta | undefined {
  return META.get(app);
}

/** A Hono app with NeMo Gym's common behaviour; add routes to it. */
export function createGymApp(options: GymAppOptions): Hono<GymEnv> {
  const prefix = options.rolloutPrefix && options.rolloutPrefix !== "none" ? PREFIXES[options.rolloutPrefix] : undefined;
  const app = new Hono<GymEnv>({
    getPath: (request) => {
      const url = request.url;
      const start = url.indexOf("/", url.indexOf("://") + 3);
      const end = url.indexOf("?", start);
      const path = start < 0 ? "/" : end < 0 ? url.slice(start) : url.slice(start, end);
      return prefix ? path.replace(prefix, "") : path;
    },
  });
  const signer = new SessionSigner(options.cookieName);
  META.set(app, { cookieName: options.cookieName, prefix, signer, routes: new Map() });
  app.use("*", callScopeMiddleware);
  app.use("*", sessionMiddleware(options.cookieName, signer));
  if (options.modelApi) app.use("*", modelApiMiddleware(app, signer));
  app.get("/", (c) => c.json({ status: "ok" }));
  app.notFound((c) => {
    const path = c.req.path;
    const other = app.routes.some((route) => route.method !== "ALL" && route.method !== c.req.method && route.path === path);
    return other ? c.json({ detail: "Method Not Allowed" }, 405) : c.json({ detail: "Not Found" }, 404);
  });
  app.onError((error, c) => {
    const answer = errorAnswer(error, options.cookieName);
    // Outside the session layer in Python, so no Set-Cookie on these (the middleware checks this flag).
    if (answer.unhandled) c.set("unhandledError", true);
    return c.json(answer.json, answer.status as 400);
  });
  return app;
}

/**
 * The answer to an error a handler raised: HttpFailure → its status and `{"detail": …}`; anything else is an
 * unhandled 500 (a Python repr string; an inner server's failure wrapped as Python's agents wrap it).
 */
export function errorAnswer(error: unknown, cookieName: string): { status: number; json: unknown; unhandled: boolean } {
  if (error instanceof HttpFailure) return { status: error.status, json: { detail: error.detail }, unhandled: false };
  if (isServerCallError(error) && error.reason === "status") {
    return { status: 500, json: `Hit an exception in ${cookieName} calling an inner server: ${pythonBytesRepr(error.body)}`, unhandled: true };
  }
  if (process.env.GYM_DEBUG_SERVERS) console.error(error);
  return { status: 500, json: pythonExceptionRepr(error), unhandled: true };
}

/** Reads a JSON body; malformed JSON is FastAPI's 422 `json_invalid`. */
export async function readJson<T = unknown>(c: Context<GymEnv>): Promise<T> {
  return parseJsonBody<T>(await c.req.text());
}

/** A body text parsed as JSON; malformed JSON is FastAPI's 422 `json_invalid`. */
export function parseJsonBody<T = unknown>(text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    const body: FastApiErrorBody = {
      detail: [{ type: "json_invalid", loc: ["body", 0], msg: "JSON decode error", input: {}, ctx: { error: (error as Error).message } }],
    };
    throw new HttpFailure(422, body.detail);
  }
}

/** Answers 422 with a FastAPI error body. */
export function validationFailure(error: FastApiErrorBody): HttpFailure {
  return new HttpFailure(422, error.detail);
}

/**
 * Forwards a request's JSON body to another server and answers with its reply, byte for byte: an agent's
 * `/aggregate_metrics` proxy must not re-type Python floats (a `1.0` read as JS `1` prints back as `1`).
 */
export async function forwardJson(c: Context<GymEnv>, target: ServerClient, path: string): Promise<Response> {
  const text = await c.req.text();
  const reply = await target.post(path, undefined, { body: text, headers: { "content-type": "application/json" } });
  if (!reply.ok) throw new ServerCallError({ server: target.name, path, method: "POST", reason: "status", status: reply.status, body: reply.text });
  return c.body(reply.text, 200, { "content-type": "application/json" });
}

/**
 * The model API layer of every gym model server (createGymApp's `modelApi`): a streaming Responses or Chat call
 * and any Messages call are answered by `answerModelApi` from the server's own non-streaming route, called
 * through the app itself (same session, same rollout prefix), so the answer takes the model-call path the
 * server's routes take. Every other request goes on to the routes untouched.
 */
import type { MiddlewareHandler } from "hono";
import type { GymEnv, SessionSigner } from "../session.ts";
import { answerModelApi, isAnthropicPath, isModelApiCall, MODEL_API_PATHS, type ModelApiPath } from "./answer.ts";

type FetchApp = { fetch(request: Request): Response | Promise<Response> };

const PATHS = new Set<string>(MODEL_API_PATHS);
const STREAM_TRUE = /"stream"\s*:\s*true/;

/** The middleware for `app`, whose session cookies `signer` seals. */
export function modelApiMiddleware(app: FetchApp, signer: SessionSigner): MiddlewareHandler<GymEnv> {
  return async (c, next) => {
    const path = c.req.path;
    if (c.req.method !== "POST" || !PATHS.has(path)) return next();
    const text = await c.req.text();
    // Most calls are plain Responses/Chat calls (NeMo Gym's dumps say `"stream": null`): look before parsing.
    if (!isAnthropicPath(path) && !STREAM_TRUE.test(text)) return next();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (body !== undefined && !isModelApiCall(path, body)) return next();
    if (body === undefined && !isAnthropicPath(path)) return next();
    const raw = new URL(c.req.url);
    const prefix = raw.pathname.slice(0, raw.pathname.length - path.length);
    const headers = new Headers(c.req.raw.headers);
    headers.set("content-type", "application/json");
    headers.delete("content-length");
    // The inner call carries this call's session, so a sticky server (vllm_model replicas) picks the same upstream.
    // (The caller's own cookie when it sent one: no need to seal the session again.)
    if (!(c.req.header("cookie") ?? "").includes(`${signer.cookieName}=`)) headers.set("cookie", `${signer.cookieName}=${signer.sealJson(JSON.stringify(c.get("session")))}`);
    return answerModelApi(path as ModelApiPath, text, async (innerPath, innerBody) => {
      const reply = await app.fetch(new Request(`${raw.origin}${prefix}${innerPath}`, { method: "POST", headers, body: JSON.stringify(innerBody) }));
      return { status: reply.status, text: await reply.text() };
    });
  };
}

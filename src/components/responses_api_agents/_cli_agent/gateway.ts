/**
 * The model gateway a CLI in a sandbox talks to: gym's model server behind a Unix socket in a folder shown
 * read-only in the sandbox. It answers only requests that carry this rollout's token (Bearer or x-api-key; the
 * CLI never sees a real credential: the upstream model server holds that), refuses calls past the turn limit,
 * forwards the rest unchanged (streamed answers stay streamed) and records each call for the trajectory.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { JsonObject } from "../../../protocol/responses.ts";
import { serveUnix, type FetchHandler } from "../../../runtime/serve.ts";
import { apiOfPath, captureCall, type CapturedCall } from "./capture.ts";

export interface GatewayOptions {
  /** The model server: an in-process app's fetch, or a forwarder to its URL. */
  upstream: FetchHandler;
  /** Model calls allowed (null: no limit); the next one is refused with a 429 the CLI reports and stops on. */
  maxTurns: number | null;
  log?: (line: string) => void;
}

export interface Gateway {
  /** Host folder holding `model.sock` (mount it in the sandbox). */
  dir: string;
  socket: string;
  token: string;
  calls: CapturedCall[];
  /** Calls refused because the turn limit was reached. */
  refusedTurns: number;
  /** Requests refused for a wrong or missing token. */
  refusedTokens: number;
  /** Resolves once every answer so far has been read to its end and recorded. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

function tokenOf(request: Request): string | null {
  const auth = request.headers.get("authorization");
  if (auth?.toLowerCase().startsWith("bearer ")) return auth.slice(7).trim();
  return request.headers.get("x-api-key");
}

/** A fresh per-rollout token: 32 random bytes, hex. */
export function mintToken(): string {
  return [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function openGateway(options: GatewayOptions): Promise<Gateway> {
  const dir = mkdtempSync(join(tmpdir(), "gym-agent-gw-"));
  chmodSync(dir, 0o755);
  const socket = join(dir, "model.sock");
  const token = mintToken();
  const calls: CapturedCall[] = [];
  const state = { refusedTurns: 0, refusedTokens: 0 };
  const pending: Promise<void>[] = [];
  const handler: FetchHandler = async (request) => {
    if (tokenOf(request) !== token) {
      state.refusedTokens++;
      return json(401, { error: { type: "authentication_error", message: "this endpoint accepts only the rollout's own token" } });
    }
    const url = new URL(request.url);
    const api = apiOfPath(url.pathname);
    if (request.method !== "POST" || !api) return options.upstream(new Request(`http://model${url.pathname}${url.search}`, { method: request.method, headers: forwardHeaders(request.headers) }));
    if (options.maxTurns !== null && calls.length >= options.maxTurns) {
      state.refusedTurns++;
      options.log?.(`model call ${calls.length + 1} refused: max_turns (${options.maxTurns}) reached`);
      return json(429, { error: { type: "max_turns", code: "max_turns", message: `max_turns (${options.maxTurns}) model calls reached; the agent must stop` } });
    }
    const text = await request.text();
    let body: JsonObject = {};
    try {
      body = JSON.parse(text) as JsonObject;
    } catch {
      // forwarded as is: the model server answers the bad body
    }
    const startedAt = new Date();
    const answer = await options.upstream(new Request(`http://model${url.pathname}${url.search}`, { method: "POST", headers: forwardHeaders(request.headers), body: text }));
    const index = calls.length;
    calls.push(captureCall(api, url.pathname, startedAt, body, answer.status, answer.headers.get("content-type"), ""));
    if (!answer.body) return answer;
    const [toClient, toRecord] = answer.body.tee();
    pending.push(new Response(toRecord).text().then(
      (recorded) => void (calls[index] = captureCall(api, url.pathname, startedAt, body, answer.status, answer.headers.get("content-type"), recorded)),
      () => {},
    ));
    return new Response(toClient, { status: answer.status, headers: answer.headers });
  };
  const served = await serveUnix(handler, socket);
  chmodSync(socket, 0o777); // the sandbox user (nobody when gym is root) connects
  return {
    dir,
    socket,
    token,
    calls,
    get refusedTurns() {
      return state.refusedTurns;
    },
    get refusedTokens() {
      return state.refusedTokens;
    },
    settled: async () => void (await Promise.all(pending)),
    async stop() {
      await served.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The CLI's headers minus its token and hop-by-hop ones (the upstream is gym's own server). */
function forwardHeaders(headers: Headers): Headers {
  const out = new Headers(headers);
  for (const name of ["authorization", "x-api-key", "host", "content-length", "connection"]) out.delete(name);
  return out;
}

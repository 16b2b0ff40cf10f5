/** For model server tests: a stand-in provider on loopback that answers only its exact routes, query parameters and headers (the mock model behind it). */
import { Hono } from "hono";
import mockModel from "../components/responses_api_models/mock_model/index.ts";
import { serve, type ServedApp } from "../runtime/serve.ts";

/** One route the stand-in accepts: everything listed must match exactly, or the call is refused with a 404 naming what differed. */
export interface StandInRoute {
  method?: "GET" | "POST";
  path: string;
  /** The exact query parameters (none when omitted). */
  query?: Record<string, string>;
  /** Headers that must be present with these values (names lower case). */
  headers?: Record<string, string>;
  /** Headers that must be absent (e.g. `authorization` where Azure wants `api-key`). */
  absent?: string[];
  /** Which mock model route answers it, or a fixed JSON answer. */
  answer: "/v1/chat/completions" | "/v1/responses" | { json: unknown; status?: number };
}

/** `gym eval run`'s readiness probe (a GET of the model URL, `/models` under a `/v1` URL) answered as a provider answers it. */
export function readinessRoute(path = "/v1/models"): StandInRoute {
  return { method: "GET", path, answer: { json: { object: "list", data: [] } } };
}

/** A call the stand-in received. */
export interface SeenCall {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: Record<string, unknown> | undefined;
  /** Why it was refused (no route matched), else undefined. */
  refused?: string;
}

export interface StandIn {
  url: string;
  seen: SeenCall[];
  /** The next `times` accepted calls answer `status` with `body` instead. */
  failNext(status: number, body: unknown, times?: number): void;
  stop(): Promise<void>;
}

const context = { name: "stand_in", serverType: "responses_api_models", implementation: "mock_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} } as const;

export interface StandInOptions {
  /** What mock_model names in answers when a body names no model. */
  model?: string;
  host?: string;
  port?: number;
  /**
   * Also answer `GET /_stand_in/seen` and `POST /_stand_in/fail_next` (`{status, body, times}`), so a test can
   * observe and steer a stand-in that runs in another process (the `vllm` stand-in). Not routes of any real server.
   */
  control?: boolean;
}

/** Serves `routes` (default on 127.0.0.1, a free port), answering through mock_model. */
export async function serveStandIn(routes: StandInRoute[], options: StandInOptions = {}): Promise<StandIn> {
  const model = options.model ?? "mock";
  const mock = await mockModel({ name: "stand_in", model }, context as never);
  const seen: SeenCall[] = [];
  let failure: { status: number; body: unknown; times: number } | undefined;
  const app = new Hono();
  if (options.control) {
    app.get("/_stand_in/seen", (c) => c.json(seen));
    app.post("/_stand_in/fail_next", async (c) => {
      const { status, body, times } = await c.req.json();
      failure = { status, body, times: times ?? 1 };
      return c.json({});
    });
  }
  app.all("*", async (c) => {
    const url = new URL(c.req.url);
    const text = c.req.method === "GET" ? "" : await c.req.text();
    const call: SeenCall = {
      method: c.req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: headerRecord(c.req.raw.headers),
      body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
    };
    seen.push(call);
    const reasons = routes.map((route) => mismatch(route, call));
    const index = reasons.findIndex((r) => r === undefined);
    if (index < 0) {
      call.refused = reasons.join("; ");
      return c.json({ error: { message: `stand-in refused ${call.method} ${url.pathname}${url.search}: ${call.refused}` } }, 404);
    }
    if (failure && failure.times > 0) {
      failure.times--;
      return c.json(failure.body as object, failure.status as 400, { "retry-after": "0" });
    }
    const answer = routes[index]!.answer;
    if (typeof answer !== "string") return c.json(answer.json as object, (answer.status ?? 200) as 200);
    return mock.fetch(new Request(`http://mock${answer}`, { method: "POST", headers: { "content-type": "application/json" }, body: text }));
  });
  const served: ServedApp = await serve(app.fetch, { host: options.host, port: options.port });
  return {
    url: served.url,
    seen,
    failNext: (status, body, times = 1) => void (failure = { status, body, times }),
    stop: () => served.stop(),
  };
}

function mismatch(route: StandInRoute, call: SeenCall): string | undefined {
  if ((route.method ?? "POST") !== call.method || route.path !== call.path) return `not ${route.method ?? "POST"} ${route.path}`;
  const wanted = JSON.stringify(Object.entries(route.query ?? {}).sort());
  const got = JSON.stringify(Object.entries(call.query).sort());
  if (wanted !== got) return `query ${got} is not ${wanted}`;
  for (const [name, value] of Object.entries(route.headers ?? {})) if (call.headers[name] !== value) return `header ${name} is ${JSON.stringify(call.headers[name] ?? null)}, not ${JSON.stringify(value)}`;
  for (const name of route.absent ?? []) if (name in call.headers) return `header ${name} must be absent`;
  return undefined;
}

function headerRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => void (out[name.toLowerCase()] = value));
  return out;
}

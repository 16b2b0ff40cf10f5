/** ServerClient: the one way to reach a Gym server, in-process or over HTTP, with the same cookies, bodies and errors. */
import { GymError } from "../errors.ts";
import { cookieHeader, responseCookies, type Cookies } from "./cookies.ts";

export interface ServerRequestOptions {
  method?: string;
  /** A JSON body (serialised compactly). `undefined` sends no body at all. */
  json?: unknown;
  /** A raw body, sent as is (takes precedence over `json`). */
  body?: string;
  /** Cookies to send; nothing is remembered between calls (the caller keeps the jar, §2.6). */
  cookies?: Cookies;
  headers?: Record<string, string>;
  /**
   * The caller only reads the parsed answer (never changes any part of it): an in-process server may then
   * hand over its own answer object instead of a copy.
   */
  readOnlyAnswer?: boolean;
  /** Milliseconds before the call fails with reason "timeout"; 0 or undefined = the client's default. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** A server's answer. A non-2xx status is an answer, not an error (tool outputs include 404 bodies). */
export interface ServerReply {
  status: number;
  ok: boolean;
  headers: Headers;
  /** Cookies this response set (name → value). */
  cookies: Cookies;
  /** The raw body text. */
  text: string;
  /** The body parsed as JSON; throws ServerCallError (reason "invalid_json") when it is not JSON. */
  json<T = unknown>(): T;
}

/** One reachable server. Both implementations share `BaseServerClient`, so they differ only in how bytes move. */
export interface ServerClient {
  readonly name: string;
  readonly kind: "in-process" | "http";
  /** `http://host:port` for HTTP, `in-process://<name>` otherwise. */
  readonly baseUrl: string;
  request(path: string, options?: ServerRequestOptions): Promise<ServerReply>;
  get(path: string, options?: ServerRequestOptions): Promise<ServerReply>;
  post(path: string, json: unknown, options?: ServerRequestOptions): Promise<ServerReply>;
  /** POST and demand a 2xx JSON answer: returns the parsed body and the cookies set; throws ServerCallError otherwise. */
  call<T = unknown>(path: string, json: unknown, options?: ServerRequestOptions): Promise<{ body: T; cookies: Cookies; reply: ServerReply }>;
  close(): Promise<void>;
}

/** Finds servers by instance name (the registry implements it; agents receive it). */
export interface ServerDirectory {
  get(name: string): ServerClient;
}

export type CallFailure = "status" | "timeout" | "connection" | "invalid_json";

/** A failed server call: code E_HTTP, with the server, path, status and an excerpt of the body. */
export class ServerCallError extends GymError {
  readonly server: string;
  readonly path: string;
  readonly method: string;
  readonly status: number | undefined;
  readonly reason: CallFailure;
  /** The full response body (for re-wrapping as Python does); `bodyExcerpt` is what messages show. */
  readonly body: string;
  readonly bodyExcerpt: string;

  constructor(info: { server: string; path: string; method: string; reason: CallFailure; status?: number; body?: string; detail?: string; cause?: unknown }) {
    const body = info.body ?? "";
    const excerpt = body.length > 300 ? `${body.slice(0, 300)}…` : body;
    const what = `${info.method} ${info.path} on server '${info.server}'`;
    const message =
      info.reason === "status"
        ? `${what} answered ${info.status}: ${excerpt}`
        : info.reason === "timeout"
          ? `${what} timed out${info.detail ? ` after ${info.detail}` : ""}`
          : info.reason === "invalid_json"
            ? `${what} answered ${info.status} with a body that is not JSON: ${excerpt}`
            : `${what} could not connect: ${info.detail ?? "connection failed"}`;
    const hint =
      info.reason === "connection"
        ? `Is '${info.server}' running? Start servers with \`gym env start\`, or check its host/port in the config.`
        : info.reason === "timeout"
          ? "Raise the timeout, or check that the server is not stuck."
          : undefined;
    super("E_HTTP", message, { hint, cause: info.cause });
    this.server = info.server;
    this.path = info.path;
    this.method = info.method;
    this.status = info.status;
    this.reason = info.reason;
    this.body = body;
    this.bodyExcerpt = excerpt;
  }
}

export function isServerCallError(error: unknown): error is ServerCallError {
  return error instanceof ServerCallError;
}

/** What `ServerClient.call` returns for a POST's reply: the parsed body of a 2xx answer, else a ServerCallError. */
export function callAnswer<T>(server: string, path: string, reply: ServerReply): { body: T; cookies: Cookies; reply: ServerReply } {
  if (!reply.ok) throw new ServerCallError({ server, path, method: "POST", reason: "status", status: reply.status, body: reply.text });
  const body = reply.json<T>();
  // The jar is made when read (an in-process answer builds it on demand; a /verify answer's is seldom used).
  return {
    body,
    reply,
    get cookies(): Cookies {
      return reply.cookies;
    },
  };
}

/** One request as the shared layer hands it to an implementation. */
export interface ExchangeInit {
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** What an implementation returns for one exchange: status, headers and the whole body text. */
export interface RawReply {
  status: number;
  headers: Headers;
  text: string;
}

/** Shared behaviour of both clients: headers, cookies, JSON, timeouts and typed errors. */
export abstract class BaseServerClient implements ServerClient {
  abstract readonly kind: "in-process" | "http";
  readonly name: string;
  readonly baseUrl: string;
  protected readonly defaultTimeoutMs: number;

  constructor(name: string, baseUrl: string, defaultTimeoutMs = 0) {
    this.name = name;
    this.baseUrl = baseUrl;
    this.defaultTimeoutMs = defaultTimeoutMs;
  }

  /** Moves one request and reads the whole answer; errors other than aborts are transport failures ("connection"). */
  protected abstract exchange(url: string, init: ExchangeInit, signal: AbortSignal | undefined): Promise<RawReply>;

  /**
   * An in-process client may serve a call without HTTP objects (see routes.ts): it returns the pending reply,
   * or undefined to go through `exchange`. Errors it rejects with are transport failures, as for `exchange`.
   */
  protected direct(_path: string, _method: string, _options: ServerRequestOptions): Promise<ServerReply> | undefined {
    return undefined;
  }

  request(path: string, options: ServerRequestOptions = {}): Promise<ServerReply> {
    const method = options.method ?? (options.json !== undefined || options.body !== undefined ? "POST" : "GET");
    const timeoutMs = options.timeoutMs || this.defaultTimeoutMs;
    // An in-process call without a deadline or a signal: nothing to race against, no closures to make.
    if (!(timeoutMs > 0) && !options.signal) {
      let direct: Promise<ServerReply> | undefined;
      try {
        direct = this.direct(path, method, options);
      } catch (error) {
        return Promise.reject(error);
      }
      if (direct) return direct.catch((error) => Promise.reject(this.connectionFailure(path, method, error)));
    }
    return this.requestWithin(path, method, timeoutMs, options);
  }

  private connectionFailure(path: string, method: string, error: unknown): ServerCallError {
    return new ServerCallError({ server: this.name, path, method, reason: "connection", detail: (error as Error)?.message ?? String(error), cause: error });
  }

  private async requestWithin(path: string, method: string, timeoutMs: number, options: ServerRequestOptions): Promise<ServerReply> {
    const timeout = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
    const signal = options.signal && timeout ? AbortSignal.any([options.signal, timeout]) : (options.signal ?? timeout);
    const fail = (reason: CallFailure, extra: { status?: number; body?: string; detail?: string; cause?: unknown } = {}) =>
      new ServerCallError({ server: this.name, path, method, reason, ...extra });
    const transportFailure = (error: unknown) => {
      if (signal?.aborted) {
        const timedOut = (signal.reason as Error | undefined)?.name === "TimeoutError";
        return fail("timeout", { detail: timedOut ? `${timeoutMs} ms` : "being cancelled", cause: error });
      }
      return fail("connection", { detail: (error as Error)?.message ?? String(error), cause: error });
    };
    const direct = timeout || options.signal ? this.direct(path, method, options) : undefined;
    if (direct) {
      try {
        return await abortable(direct, signal);
      } catch (error) {
        throw transportFailure(error);
      }
    }
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined = options.body;
    if (body === undefined && options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers["content-type"] ??= "application/json";
    }
    const cookie = cookieHeader(options.cookies);
    if (cookie) headers.cookie = cookie;
    let response: RawReply;
    try {
      response = await abortable(this.exchange(this.baseUrl + path, { method, headers, body }, signal), signal);
    } catch (error) {
      throw transportFailure(error);
    }
    const text = response.text;
    let parsed: { value: unknown } | undefined;
    return {
      status: response.status,
      ok: response.status >= 200 && response.status < 300,
      headers: response.headers,
      cookies: responseCookies(response.headers),
      text,
      json<T>() {
        if (!parsed) {
          try {
            parsed = { value: JSON.parse(text) };
          } catch (error) {
            throw fail("invalid_json", { status: response.status, body: text, cause: error });
          }
        }
        return parsed.value as T;
      },
    };
  }

  get(path: string, options: ServerRequestOptions = {}): Promise<ServerReply> {
    return this.request(path, { ...options, method: "GET" });
  }

  post(path: string, json: unknown, options: ServerRequestOptions = {}): Promise<ServerReply> {
    return this.request(path, { ...options, method: "POST", json });
  }

  async call<T = unknown>(path: string, json: unknown, options: ServerRequestOptions = {}) {
    return callAnswer<T>(this.name, path, await this.post(path, json, options));
  }

  async close(): Promise<void> {}
}

/** Rejects as soon as `signal` aborts, even if `promise` (e.g. an in-process handler) ignores it. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** The in-process ServerClient: a call is a direct call on a JSON route, else `app.fetch(request)` on the Hono app — no socket. */
import type { Hono } from "hono";
import { BaseServerClient, ServerCallError, type ExchangeInit, type RawReply, type ServerReply, type ServerRequestOptions } from "./client.ts";
import { isSimpleJar, type Cookies } from "./cookies.ts";
import { copyJar } from "./lazy-cookies.ts";
import { isPlainJson, parsedCopy, parsedView } from "./plain-json.ts";
import { dispatchDirect, isSimpleList, jarOfSetCookies, type DirectAnswer, type DirectCall, type SetCookie } from "./routes.ts";

/** Anything with a WHATWG fetch handler (a Hono app, or a bare function). */
export type FetchApp = Pick<Hono<any>, "fetch"> | { fetch(request: Request): Response | Promise<Response> };

export interface InProcessOptions {
  timeoutMs?: number;
  /**
   * Hand JSON bodies to the app's JSON routes as objects, skipping HTTP objects and JSON text (default true).
   * Only for apps whose routes never change what they are handed (the built-in ones); others get text.
   */
  direct?: boolean;
}

export class InProcessServerClient extends BaseServerClient {
  readonly kind = "in-process" as const;
  private readonly app: FetchApp;
  private readonly directCalls: boolean;

  constructor(name: string, app: FetchApp, options: InProcessOptions = {}) {
    // The host part only has to parse as a URL; routing never looks at it.
    super(name, `http://${encodeURIComponent(name) || "server"}.in-process`, options.timeoutMs);
    this.app = app;
    this.directCalls = options.direct ?? true;
  }

  /**
   * True when this client reaches `app` itself with direct calls and no deadline: a server may then run its own
   * route's work as a function call instead of calling itself (what crosses is the same objects either way).
   */
  servesDirect(app: object): boolean {
    return this.directCalls && this.app === app && !(this.defaultTimeoutMs > 0);
  }

  /**
   * A POST of a JSON body on a JSON route, its cookies given as the answers that set them listed them (see
   * rollout-calls.ts): the reply, or undefined when this call has to go the usual way (no such route, a deadline,
   * a body that is not plain JSON, or cookies that would not come back unchanged through a jar).
   */
  postListed(path: string, json: unknown, sent: readonly SetCookie[], readOnly: boolean): Promise<DirectReply> | undefined {
    if (!this.directCalls || this.defaultTimeoutMs > 0 || json === undefined || !isPlainJson(json) || !isSimpleList(sent)) return undefined;
    const pending = dispatchDirect(this.app, { path, body: { value: json }, cookies: undefined, sent, headers: JSON_BODY_HEADERS });
    return pending?.then((answer) => new DirectReply(answer, readOnly, this.name, path, "POST"));
  }

  protected async exchange(url: string, init: ExchangeInit, signal: AbortSignal | undefined): Promise<RawReply> {
    const response = await this.app.fetch(new Request(url, { ...init, signal }));
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  protected override direct(path: string, method: string, options: ServerRequestOptions): Promise<ServerReply> | undefined {
    if (!this.directCalls || method !== "POST" || !isSimpleJar(options.cookies) || !plainHeaders(options.headers)) return undefined;
    let body: DirectCall["body"];
    let headers: Record<string, string>;
    if (options.body !== undefined) {
      body = { text: options.body };
      headers = { ...options.headers };
    } else if (options.json !== undefined && isPlainJson(options.json)) {
      body = { value: options.json };
      headers = options.headers === undefined ? JSON_BODY_HEADERS : { ...options.headers };
      headers["content-type"] ??= "application/json";
    } else return undefined;
    // The jar as it is now (the caller may change its own later); values not sealed yet stay unread.
    const pending = dispatchDirect(this.app, { path, body, cookies: snapshot(options.cookies), headers });
    if (!pending) return undefined;
    const readOnly = options.readOnlyAnswer === true;
    return pending.then((answer) => new DirectReply(answer, readOnly, this.name, path, method));
  }
}

/** The headers of a JSON body sent without headers of its own (read, never changed, by the route). */
const JSON_BODY_HEADERS: Record<string, string> = { "content-type": "application/json" };

/** A copy of the jar, or none for an absent or empty one (a route sees no cookies either way). */
function snapshot(jar: Cookies | undefined): Cookies | undefined {
  if (jar === undefined) return undefined;
  for (const _ in jar) return copyJar(jar);
  return undefined;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE = /^[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?$|^$/;

/** Headers a Request would take as they are (so a direct call sees what `app.fetch` would). */
function plainHeaders(headers: Record<string, string> | undefined): boolean {
  if (!headers) return true;
  for (const name in headers) if (!TOKEN.test(name) || typeof headers[name] !== "string" || !FIELD_VALUE.test(headers[name])) return false;
  return true;
}

/** A direct call's answer as a ServerReply: text, headers and cookies made only when asked for. */
export class DirectReply implements ServerReply {
  readonly status: number;
  readonly ok: boolean;
  private readonly answer: DirectAnswer;
  private readonly readOnly: boolean;
  private readonly server: string;
  private readonly path: string;
  private readonly method: string;
  private textMemo?: string;
  private headersMemo?: Headers;
  private cookiesMemo?: Cookies;
  private parsed?: { value: unknown };

  constructor(answer: DirectAnswer, readOnly: boolean, server: string, path: string, method: string) {
    this.answer = answer;
    this.readOnly = readOnly;
    this.status = answer.status;
    this.ok = answer.status >= 200 && answer.status < 300;
    this.server = server;
    this.path = path;
    this.method = method;
  }

  get text(): string {
    return (this.textMemo ??= this.answer.text());
  }

  get headers(): Headers {
    if (!this.headersMemo) {
      const headers = new Headers(this.answer.headers);
      for (const cookie of this.answer.cookies) headers.append("set-cookie", cookie.line);
      this.headersMemo = headers;
    }
    return this.headersMemo;
  }

  get cookies(): Cookies {
    return (this.cookiesMemo ??= jarOfSetCookies(this.answer.cookies));
  }

  /** The answer's cookies as it set them (no jar made). */
  get setCookies(): readonly SetCookie[] {
    return this.answer.cookies;
  }

  json<T = unknown>(): T {
    if (!this.parsed) {
      // The answer object is the server's: callers get their own copy, as a parse of the text would give,
      // unless they only read it.
      this.parsed = this.readOnly ? parsedView(this.answer.json) : parsedCopy(this.answer.json);
      if (!this.parsed) {
        const text = this.text;
        try {
          this.parsed = { value: JSON.parse(text) };
        } catch (error) {
          throw new ServerCallError({ server: this.server, path: this.path, method: this.method, reason: "invalid_json", status: this.status, body: text, cause: error });
        }
      }
    }
    return this.parsed.value as T;
  }
}

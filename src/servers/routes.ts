/**
 * JSON routes that serve both HTTP (through Hono) and in-process direct calls (objects in, objects out, no
 * Request, Response, headers or JSON text), with the same sessions, cookies, statuses and error bodies.
 */
import type { Context, Hono } from "hono";
import { ServerCallError } from "./client.ts";
import { addSetCookie, cookieHeader, isSimpleCookie, requestCookies, type Cookies } from "./cookies.ts";
import { errorAnswer, gymAppMeta, parseJsonBody, type GymAppMeta, type GymEnv } from "./gym-app.ts";
import { pyJsonText } from "./resources/json.ts";
import { copyJar, lazyCookie, lazyIn, lazyValues, setLazyCookie, type LazyCookieValue } from "./lazy-cookies.ts";
import { parsedView } from "./plain-json.ts";
import { SESSION_COOKIE_ATTRIBUTES, type Session, type SessionSigner } from "./session.ts";

/** What a JSON route sees of its request, whichever way it came. */
export interface RouteRequest {
  /**
   * The body object an in-process caller handed over, else undefined (read `text()`). It is the caller's own
   * object: a route reads it and never changes it (copy what must change).
   */
  readonly handed: { value: unknown } | undefined;
  /** The body text (made from the handed object when there is one). */
  text(): Promise<string>;
  readonly session: Session;
  /** The path as requested, rollout prefix included. */
  readonly rawPath: string;
  header(name: string): string | undefined;
  /** The `Cookie` header as a jar (a fresh object). */
  cookies(): Cookies;
  /** `Set-Cookie: name=value; Path=/; SameSite=lax`, as FastAPI's `response.set_cookie(name, value)` writes it. */
  setCookie(name: string, value: string): void;
  /** `setCookie` for every cookie of a jar, in order (values not read yet stay unread in-process). */
  forwardCookies(jar: Cookies): void;
}

/** A route's answer: JSON (`c.json`), or a resources server's Python-typed JSON (`pyJson`: `1.0` stays `1.0`). */
export interface RouteAnswer {
  json: unknown;
  status?: number;
  py?: boolean;
}

export type RouteHandler = (request: RouteRequest) => RouteAnswer | Promise<RouteAnswer>;

/** Registers a POST route on a Gym app, for HTTP and for in-process direct calls alike. */
export function jsonRoute(app: Hono<GymEnv>, path: string, handler: RouteHandler): void {
  const meta = gymAppMeta(app);
  if (!meta) throw new Error("jsonRoute needs an app made by createGymApp");
  meta.routes.set(path, handler);
  app.post(path, async (c) => {
    const answer = await handler(new HonoRouteRequest(c));
    const text = answer.py ? pyJsonText(answer.json as Record<string, unknown>) : JSON.stringify(answer.json);
    return c.body(text, (answer.status ?? 200) as 200, { "content-type": "application/json" });
  });
}

/** The JSON body: the handed object, or the text parsed (malformed JSON is FastAPI's 422 `json_invalid`). */
export async function routeJson<T = unknown>(request: RouteRequest): Promise<T> {
  return request.handed ? (request.handed.value as T) : parseJsonBody<T>(await request.text());
}

class HonoRouteRequest implements RouteRequest {
  readonly handed = undefined;
  private readonly c: Context<GymEnv>;
  constructor(c: Context<GymEnv>) {
    this.c = c;
  }
  text(): Promise<string> {
    return this.c.req.text();
  }
  get session(): Session {
    return this.c.get("session");
  }
  get rawPath(): string {
    const url = this.c.req.url;
    const start = url.indexOf("/", url.indexOf("://") + 3);
    const end = url.indexOf("?", start);
    return start < 0 ? "/" : end < 0 ? url.slice(start) : url.slice(start, end);
  }
  header(name: string): string | undefined {
    return this.c.req.header(name);
  }
  cookies(): Cookies {
    return requestCookies(this.c.req.header("cookie"));
  }
  setCookie(name: string, value: string): void {
    this.c.header("set-cookie", `${name}=${value}; Path=/; SameSite=lax`, { append: true });
  }
  forwardCookies(jar: Cookies): void {
    for (const name in jar) this.setCookie(name, jar[name]!);
  }
}

/** One in-process call, as the client hands it over. */
export interface DirectCall {
  path: string;
  /** The body: a plain JSON value (`isPlainJson`) handed over as is, or the raw text. */
  body: { value: unknown } | { text: string };
  /** A jar of simple cookies (`isSimpleJar`), or none: the caller's as it was when the call was made. */
  cookies: Cookies | undefined;
  /**
   * Instead of `cookies`: the cookies as the answers that set them listed them (all simple), for a caller that
   * keeps answers' cookies as they came (rollout-calls.ts); the jar is made only if the route asks for it.
   */
  sent?: readonly SetCookie[];
  /** The request headers besides `cookie`, as the client would send them. */
  headers: Record<string, string>;
}

/** A direct call's answer: status, the route's own answer object, its text on demand, headers. */
export interface DirectAnswer {
  status: number;
  /** The answer as the route made it (PyFloat values and all): its text is `text()`; read it, never change it. */
  json: unknown;
  text(): string;
  /** Headers other than `set-cookie`, names lower-case. */
  headers: [string, string][];
  /** `Set-Cookie` lines in order, each with the name and value it sets (the session's is sealed when first read). */
  cookies: SetCookie[];
}

/** One `Set-Cookie` of a direct answer. */
export class SetCookie {
  readonly name: string;
  private readonly source: string | LazyCookieValue;
  private readonly attributes: string;

  constructor(name: string, source: string | LazyCookieValue, attributes: string) {
    this.name = name;
    this.source = source;
    this.attributes = attributes;
  }
  /** The value, sealed now if it was not yet. */
  get value(): string {
    return typeof this.source === "string" ? this.source : this.source.value;
  }
  /** The value still to be computed, if it is one. */
  get lazy(): LazyCookieValue | undefined {
    return typeof this.source === "string" ? undefined : this.source;
  }
  get line(): string {
    return `${this.name}=${this.value}; ${this.attributes}`;
  }
}

const FORWARDED_ATTRIBUTES = "Path=/; SameSite=lax";

/** A session cookie's value, sealed (HMAC) the first time it is read: in-process, many never are. */
class SessionCookie implements LazyCookieValue {
  readonly signer: SessionSigner;
  private makeJson: (() => string) | undefined;
  private json = "";
  private sealed: string | undefined;

  constructor(signer: SessionSigner, makeJson: () => string) {
    this.signer = signer;
    this.makeJson = makeJson;
  }
  /** The session's JSON, fixed on first use. */
  sessionJson(): string {
    if (this.makeJson) {
      this.json = this.makeJson();
      this.makeJson = undefined;
    }
    return this.json;
  }
  get value(): string {
    return (this.sealed ??= this.signer.sealJson(this.sessionJson()));
  }
}

// Paths a URL parser leaves as they are (no dot segments, escapes, queries or empty segments).
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/;

/**
 * Serves a call on a JSON route of `app` without Hono, exactly as `app.fetch` would answer it; undefined
 * when the app has no JSON route for this path (the caller then goes through `app.fetch`).
 */
export function dispatchDirect(app: object, call: DirectCall): Promise<DirectAnswer> | undefined {
  const meta = gymAppMeta(app);
  if (!meta || meta.routes.size === 0 || asksToStream(call)) return undefined;
  // A route's own path (the usual call) is plain and has no rollout prefix to strip.
  let handler = meta.routes.get(call.path);
  if (!handler) {
    if (!PLAIN_PATH.test(call.path)) return undefined;
    handler = meta.routes.get(meta.prefix ? call.path.replace(meta.prefix, "") : call.path);
  }
  return handler ? serveDirect(meta, handler, call) : undefined;
}

/** A streaming call is answered by a middleware (model-api/) that only the Hono path runs. */
function asksToStream(call: DirectCall): boolean {
  const body = call.body;
  return "value" in body ? (body.value as { stream?: unknown } | null)?.stream === true : /"stream"\s*:\s*true/.test(body.text);
}

/** How a direct call opens the app's session from the caller's jar (only when something asks for it). */
function sessionOpener(meta: GymAppMeta, cookies: Cookies | undefined): () => Session {
  const signer = meta.signer;
  const unread = lazyCookie(cookies, meta.cookieName);
  const raw = unread ? undefined : cookies?.[meta.cookieName];
  // A cookie sealed under this name in this process and never read has a valid signature: open its JSON directly.
  return unread instanceof SessionCookie && unread.signer.cookieName === signer.cookieName
    ? () => signer.sessionFromJson(unread.sessionJson())
    : () => signer.session(unread ? unread.value : raw);
}

/** The session opener for a call that lists its cookies as answers set them: the jar is made only when needed. */
function listedSessionOpener(meta: GymAppMeta, sent: readonly SetCookie[]): () => Session {
  for (let i = sent.length - 1; i >= 0; i--) {
    const cookie = sent[i]!;
    if (cookie.name !== meta.cookieName) continue;
    const unread = cookie.lazy;
    if (unread instanceof SessionCookie && unread.signer.cookieName === meta.cookieName) return () => meta.signer.sessionFromJson(unread.sessionJson());
    return sessionOpener(meta, jarOfSetCookies(sent));
  }
  // No cookie of this app's: a new session when asked for.
  return () => meta.signer.session(undefined);
}

/**
 * The jar a caller keeps of an answer's `Set-Cookie` lines (later lines win): a session value not sealed yet
 * stays so (sealed values are simple: base64url "." base64url).
 */
export function jarOfSetCookies(cookies: readonly SetCookie[]): Cookies {
  const jar: Cookies = {};
  for (const cookie of cookies) {
    const lazy = cookie.lazy;
    if (lazy && isSimpleCookie(cookie.name, "")) setLazyCookie(jar, cookie.name, lazy);
    else if (isSimpleCookie(cookie.name, cookie.value)) jar[cookie.name] = cookie.value;
    else addSetCookie(jar, cookie.line);
  }
  return jar;
}

/** A jar as the list of cookies that would set it (values not sealed yet stay unsealed). */
export function setCookiesOfJar(jar: Cookies | undefined): SetCookie[] {
  const out: SetCookie[] = [];
  if (!jar) return out;
  const lazy = lazyValues(jar);
  for (const name in jar) out.push(new SetCookie(name, (lazy && lazyIn(jar, lazy, name)) || jar[name]!, FORWARDED_ATTRIBUTES));
  return out;
}

/** Whether every cookie of a list comes back unchanged through a jar (see `isSimpleJar`). */
export function isSimpleList(cookies: readonly SetCookie[]): boolean {
  for (const cookie of cookies) if (cookie.lazy ? !isSimpleCookie(cookie.name, "") : !isSimpleCookie(cookie.name, cookie.value)) return false;
  return true;
}

async function serveDirect(meta: GymAppMeta, handler: RouteHandler, call: DirectCall): Promise<DirectAnswer> {
  const signer = meta.signer;
  const request = new DirectRouteRequest(call, call.sent ? listedSessionOpener(meta, call.sent) : sessionOpener(meta, call.cookies));
  let answer: RouteAnswer;
  let unhandled = false;
  try {
    answer = await handler(request);
  } catch (error) {
    const failure = errorAnswer(error, meta.cookieName);
    unhandled = failure.unhandled;
    answer = failure;
  }
  const cookies = request.setCookies;
  if (!unhandled) {
    // The session as it is now; one nobody looked at is opened (or started) only when its cookie is used.
    const json = request.sessionJson();
    const session = new SessionCookie(signer, json === undefined ? () => JSON.stringify(request.session) : () => json);
    cookies.push(new SetCookie(meta.cookieName, session, SESSION_COOKIE_ATTRIBUTES));
  }
  const json = answer.json;
  // JSON.stringify(undefined) is undefined: Hono then sends an empty body.
  const text = answer.py ? () => pyJsonText(json as Record<string, unknown>) : () => JSON.stringify(json) ?? "";
  return { status: answer.status ?? 200, json, text, headers: JSON_HEADERS, cookies };
}

/** The headers of every direct answer (read, never changed). */
const JSON_HEADERS: [string, string][] = [["content-type", "application/json"]];

class DirectRouteRequest implements RouteRequest {
  readonly handed: { value: unknown } | undefined;
  readonly setCookies: SetCookie[] = [];
  private readonly call: DirectCall;
  private readonly openSession: () => Session;
  private sessionMemo?: Session;
  private headerMap?: Headers;

  constructor(call: DirectCall, openSession: () => Session) {
    this.call = call;
    this.openSession = openSession;
    this.handed = "value" in call.body ? call.body : undefined;
  }
  get session(): Session {
    return (this.sessionMemo ??= this.openSession());
  }
  /** The session's JSON now, if a handler asked for it (undefined: untouched). */
  sessionJson(): string | undefined {
    return this.sessionMemo && JSON.stringify(this.sessionMemo);
  }
  text(): Promise<string> {
    const body = this.call.body;
    return Promise.resolve("text" in body ? body.text : JSON.stringify(body.value));
  }
  get rawPath(): string {
    return this.call.path;
  }
  /** The jar the call carries (made from the list when it came as one). */
  private jar(): Cookies | undefined {
    const call = this.call;
    return call.sent ? jarOfSetCookies(call.sent) : call.cookies;
  }
  header(name: string): string | undefined {
    if (name.toLowerCase() === "cookie") return cookieHeader(this.jar());
    if (!this.headerMap) {
      this.headerMap = new Headers(this.call.headers);
      // What a Request made with a string body and no content type says it carries.
      if (!this.headerMap.has("content-type")) this.headerMap.set("content-type", "text/plain;charset=UTF-8");
    }
    return this.headerMap.get(name) ?? undefined;
  }
  cookies(): Cookies {
    return this.call.sent ? jarOfSetCookies(this.call.sent) : copyJar(this.call.cookies);
  }
  setCookie(name: string, value: string): void {
    this.setCookies.push(new SetCookie(name, value, FORWARDED_ATTRIBUTES));
  }
  forwardCookies(jar: Cookies): void {
    const lazy = lazyValues(jar);
    for (const name in jar) this.setCookies.push(new SetCookie(name, (lazy && lazyIn(jar, lazy, name)) || jar[name]!, FORWARDED_ATTRIBUTES));
  }
}

/** Cookies as a caller holds them: a jar, or the list the answers that set them gave (rollout-calls.ts). */
export type HeldCookies = Cookies | readonly SetCookie[];

const asList = (held: HeldCookies | undefined): readonly SetCookie[] => (Array.isArray(held) ? held : setCookiesOfJar(held as Cookies | undefined));

/**
 * What `client.call(path, …)` answers when an in-process client of `app` (direct calls on, no deadline) calls
 * a JSON route whose work is `run`, without the hop: for a server calling its own route with objects it made.
 * The route must leave the session alone and set cookies only by forwarding the cookies it returns; `cookies`
 * are those the call would have sent. A failure is the ServerCallError the call would throw (the same status
 * and body text); the answer's cookies (`sent` as a list, `cookies` as a jar made when read) are the forwarded
 * ones, then the app's session cookie (sealed when read).
 */
export async function callOwnRoute<T>(
  app: object,
  server: string,
  path: string,
  cookies: HeldCookies | undefined,
  run: () => Promise<{ json: unknown; forwarded: HeldCookies[] }>,
): Promise<{ body: T; sent: readonly SetCookie[]; readonly cookies: Cookies }> {
  const meta = gymAppMeta(app);
  if (!meta) throw new Error("callOwnRoute needs an app made by createGymApp");
  let json: unknown;
  let status = 200;
  const sent: SetCookie[] = [];
  try {
    const done = await run();
    json = done.json;
    for (const forwarded of done.forwarded) for (const cookie of asList(forwarded)) sent.push(cookie);
    const open = Array.isArray(cookies) ? listedSessionOpener(meta, cookies) : sessionOpener(meta, cookies as Cookies | undefined);
    sent.push(new SetCookie(meta.cookieName, new SessionCookie(meta.signer, () => JSON.stringify(open())), SESSION_COOKIE_ATTRIBUTES));
  } catch (error) {
    const failure = errorAnswer(error, meta.cookieName);
    json = failure.json;
    status = failure.status;
  }
  if (status < 200 || status >= 300) throw new ServerCallError({ server, path, method: "POST", reason: "status", status, body: JSON.stringify(json) ?? "" });
  const view = parsedView(json);
  let jar: Cookies | undefined;
  return {
    body: (view ? view.value : JSON.parse(JSON.stringify(json))) as T,
    sent,
    get cookies(): Cookies {
      return (jar ??= jarOfSetCookies(sent));
    },
  };
}

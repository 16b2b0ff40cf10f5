/** Signed session cookies as NeMo Gym servers issue them: one per server instance, re-sent on every response (§2.1). */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { requestCookies } from "./cookies.ts";

/** What a server keeps per caller: at least a `session_id` (UUID4), created on first sight. */
export interface Session {
  session_id: string;
  [key: string]: unknown;
}

/** Hono variables every Gym app carries. */
export interface GymVariables {
  session: Session;
  /** Set by the error handler: an unhandled 500 goes out without `Set-Cookie`, as in Python. */
  unhandledError?: boolean;
}

export type GymEnv = { Variables: GymVariables };

/** The cookie name Python servers use: `<PythonClassName>___<instanceName>`. */
export function sessionCookieName(className: string, instanceName: string): string {
  return `${className}___${instanceName}`;
}

/** What follows `name=value` in a session `Set-Cookie` (Starlette's SessionMiddleware defaults). */
export const SESSION_COOKIE_ATTRIBUTES = "path=/; Max-Age=1209600; httponly; samesite=lax";

/**
 * Session middleware. The cookie value is `base64url(json).signature`, HMAC-keyed by the cookie name (Python
 * keys itsdangerous by the same string); peers treat it as opaque, and a value that fails verification counts
 * as absent, so a new session starts.
 */
export function sessionMiddleware(cookieName: string, signer = new SessionSigner(cookieName)): MiddlewareHandler<GymEnv> {
  return async (c, next) => {
    const raw = requestCookies(c.req.header("cookie"))[cookieName];
    c.set("session", signer.session(raw));
    await next();
    if (c.get("unhandledError")) return;
    c.res.headers.append("set-cookie", signer.setCookieLine(c.get("session")));
  };
}

/** Opens and seals one server's session cookies (the middleware and in-process direct calls share one). */
export class SessionSigner {
  readonly cookieName: string;
  private readonly key: string;
  /** Sealed values of sessions seen recently, so a hot session is not re-signed on every call. */
  private readonly cache = new Map<string, Session>();

  constructor(cookieName: string) {
    this.cookieName = cookieName;
    this.key = cookieName;
  }

  /** The session a cookie value carries, or a new one (UUID4 id) when it is absent or fails verification. */
  session(raw: string | undefined): Session {
    return (raw && this.open(raw)) || { session_id: crypto.randomUUID() };
  }

  /**
   * What `session(sealJson(json))` gives, without sealing or verifying: for a cookie this server's name
   * sealed in this process (so its signature is valid) that travelled unread.
   */
  sessionFromJson(json: string): Session {
    try {
      const session = JSON.parse(json) as Session;
      if (typeof session?.session_id === "string") return session;
    } catch {
      // not a session: a new one starts, as for a cookie that does not open
    }
    return { session_id: crypto.randomUUID() };
  }

  /** The `Set-Cookie` value re-sent on every answer, with Python's attributes. */
  setCookieLine(session: Session): string {
    return `${this.cookieName}=${this.seal(session)}; ${SESSION_COOKIE_ATTRIBUTES}`;
  }

  /** Sealed values by session JSON: an unchanged session (the usual case) is not signed again. */
  private readonly sealed = new Map<string, string>();

  seal(session: Session): string {
    return this.sealJson(JSON.stringify(session));
  }

  /** The cookie value for a session given as its JSON. */
  sealJson(json: string): string {
    let value = this.sealed.get(json);
    if (value === undefined) {
      const payload = Buffer.from(json).toString("base64url");
      value = `${payload}.${this.sign(payload)}`;
      if (this.sealed.size > 10_000) this.sealed.clear();
      this.sealed.set(json, value);
    }
    return value;
  }

  open(value: string): Session | undefined {
    const cached = this.cache.get(value);
    if (cached) return { ...cached };
    const dot = value.lastIndexOf(".");
    if (dot <= 0) return undefined;
    const payload = value.slice(0, dot);
    const given = Buffer.from(value.slice(dot + 1));
    const expected = Buffer.from(this.sign(payload));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const session = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Session;
      if (typeof session?.session_id !== "string") return undefined;
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(value, session);
      return { ...session };
    } catch {
      return undefined;
    }
  }

  private sign(payload: string): string {
    return createHmac("sha256", this.key).update(payload).digest("base64url").slice(0, 27);
  }
}

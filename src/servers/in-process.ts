/** The in-process ServerClient: a call is `app.fetch(request)` on a Hono app in this process — no socket. */
import type { Hono } from "hono";
import { BaseServerClient, type ExchangeInit, type RawReply } from "./client.ts";

/** Anything with a WHATWG fetch handler (a Hono app, or a bare function). */
export type FetchApp = Pick<Hono<any>, "fetch"> | { fetch(request: Request): Response | Promise<Response> };

export class InProcessServerClient extends BaseServerClient {
  readonly kind = "in-process" as const;
  private readonly app: FetchApp;

  constructor(name: string, app: FetchApp, options: { timeoutMs?: number } = {}) {
    // The host part only has to parse as a URL; routing never looks at it.
    super(name, `http://${encodeURIComponent(name) || "server"}.in-process`, options.timeoutMs);
    this.app = app;
  }

  protected async exchange(url: string, init: ExchangeInit, signal: AbortSignal | undefined): Promise<RawReply> {
    const response = await this.app.fetch(new Request(url, { ...init, signal }));
    return { status: response.status, headers: response.headers, text: await response.text() };
  }
}

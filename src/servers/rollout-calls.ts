/**
 * One rollout's calls from an agent to its servers with one state: each server's cookies are kept as the list
 * its last answer set them in (what the agent's jar for that server would hold), instead of a jar made, copied
 * and read on every hop. A POST of a plain JSON body on an in-process JSON route hands the body over and keeps
 * the answer's cookies as they came; any other call goes the usual way, with the state as its jar and the
 * reply's cookies taken back. Each server's cookies are replaced by what its last answer set, as an agent that
 * keeps one jar per server replaces it (so a server sees exactly the cookies it would have been sent).
 */
import { callAnswer, ServerCallError, type ServerClient, type ServerDirectory, type ServerReply, type ServerRequestOptions } from "./client.ts";
import type { Cookies } from "./cookies.ts";
import { DirectReply, InProcessServerClient } from "./in-process.ts";
import { jarOfSetCookies, setCookiesOfJar, type SetCookie } from "./routes.ts";

export class RolloutCalls implements ServerDirectory {
  private readonly servers: ServerDirectory;
  private readonly sent = new Map<string, readonly SetCookie[]>();
  private readonly clients = new Map<string, RolloutClient>();

  constructor(servers: ServerDirectory) {
    this.servers = servers;
  }

  /** A client for `name` whose calls send and keep this rollout's cookies for it (the `cookies` option is not read). */
  get(name: string): ServerClient {
    let client = this.clients.get(name);
    if (!client) this.clients.set(name, (client = new RolloutClient(this.servers.get(name), this)));
    return client;
  }

  /** Starts a server's cookies from a jar (e.g. what the rollout's caller sent). */
  start(name: string, jar: Cookies | undefined): void {
    this.sent.set(name, setCookiesOfJar(jar));
  }

  cookiesOf(name: string): readonly SetCookie[] {
    return this.sent.get(name) ?? NONE;
  }

  keep(name: string, cookies: readonly SetCookie[]): void {
    this.sent.set(name, cookies);
  }

  /** The jar an agent would send holding the cookies of these servers, in order (later ones win). */
  jarOf(...names: string[]): Cookies {
    return jarOfSetCookies(names.flatMap((name) => this.cookiesOf(name)));
  }
}

const NONE: readonly SetCookie[] = [];

class RolloutClient implements ServerClient {
  readonly name: string;
  readonly kind: "in-process" | "http";
  readonly baseUrl: string;
  private readonly inner: ServerClient;
  private readonly calls: RolloutCalls;

  constructor(inner: ServerClient, calls: RolloutCalls) {
    this.inner = inner;
    this.calls = calls;
    this.name = inner.name;
    this.kind = inner.kind;
    this.baseUrl = inner.baseUrl;
  }

  request(path: string, options: ServerRequestOptions = {}): Promise<ServerReply> {
    const method = options.method ?? (options.json !== undefined || options.body !== undefined ? "POST" : "GET");
    return (method === "POST" && this.handOver(path, options.json, options)) || this.usual(path, options);
  }

  /** A POST of a JSON body on an in-process JSON route, handed over; undefined when it has to go the usual way. */
  private handOver(path: string, json: unknown, options: ServerRequestOptions): Promise<ServerReply> | undefined {
    if (!(this.inner instanceof InProcessServerClient) || options.body !== undefined || options.headers !== undefined || options.timeoutMs || options.signal) return undefined;
    const pending = this.inner.postListed(path, json, this.calls.cookiesOf(this.name), options.readOnlyAnswer === true);
    return pending?.then(
      (reply) => this.kept(reply),
      (error) => Promise.reject(this.connectionFailure(path, error)),
    );
  }

  private kept(reply: DirectReply): DirectReply {
    this.calls.keep(this.name, reply.setCookies);
    return reply;
  }

  private async usual(path: string, options: ServerRequestOptions): Promise<ServerReply> {
    const reply = await this.inner.request(path, { ...options, cookies: jarOfSetCookies(this.calls.cookiesOf(this.name)) });
    this.calls.keep(this.name, setCookiesOfJar(reply.cookies));
    return reply;
  }

  private connectionFailure(path: string, error: unknown): ServerCallError {
    return new ServerCallError({ server: this.name, path, method: "POST", reason: "connection", detail: (error as Error)?.message ?? String(error), cause: error });
  }

  get(path: string, options: ServerRequestOptions = {}): Promise<ServerReply> {
    return this.request(path, { ...options, method: "GET" });
  }

  post(path: string, json: unknown, options: ServerRequestOptions = {}): Promise<ServerReply> {
    return this.handOver(path, json, options) ?? this.usual(path, { ...options, method: "POST", json });
  }

  async call<T = unknown>(path: string, json: unknown, options: ServerRequestOptions = {}) {
    return callAnswer<T>(this.name, path, await this.post(path, json, options));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

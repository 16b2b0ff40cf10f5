/** The HTTP ServerClient: ofetch over keep-alive connections to a server at `http://host:port` (ours or Python's). */
import { $fetch } from "ofetch";
import { BaseServerClient, type ExchangeInit, type RawReply } from "./client.ts";
import { addReportedCounts, COUNTS_HEADER, outgoingScopeHeader, SCOPE_HEADER } from "./calls/cache/index.ts";

export interface HttpClientOptions {
  timeoutMs?: number;
  /** Extra tries when the connection itself fails (refused, reset), 0.5 s apart, as NeMo Gym's client does. */
  connectRetries?: number;
}

export class HttpServerClient extends BaseServerClient {
  readonly kind = "http" as const;
  private readonly connectRetries: number;

  constructor(name: string, baseUrl: string, options: HttpClientOptions = {}) {
    super(name, baseUrl.replace(/\/+$/, ""), options.timeoutMs);
    this.connectRetries = options.connectRetries ?? 3;
  }

  protected async exchange(url: string, init: ExchangeInit, signal: AbortSignal | undefined): Promise<RawReply> {
    // A rollout's call scope travels to a separately served server, and its cache counts come back (calls/cache/scope.ts).
    const scope = outgoingScopeHeader();
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await $fetch.raw<string, "text">(url, {
          method: init.method,
          headers: scope ? { ...init.headers, [SCOPE_HEADER]: scope } : init.headers,
          body: init.body,
          signal,
          retry: 0,
          ignoreResponseError: true,
          responseType: "text",
        });
        if (scope) addReportedCounts(response.headers.get(COUNTS_HEADER));
        return { status: response.status, headers: response.headers, text: response._data ?? "" };
      } catch (error) {
        if (signal?.aborted || attempt >= this.connectRetries || !isConnectionError(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }
}

function isConnectionError(error: unknown): boolean {
  const text = `${(error as Error)?.message ?? ""} ${(error as { cause?: Error })?.cause?.message ?? ""} ${(error as { code?: string })?.code ?? ""}`;
  return /ECONNREFUSED|ECONNRESET|ConnectionRefused|ConnectionClosed|socket|connect/i.test(text);
}

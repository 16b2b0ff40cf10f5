/** Serving a fetch handler on a TCP port: Bun.serve or Deno.serve behind one function. */

declare const Deno:
  | {
      serve(
        options: { hostname: string; port: number; onListen?: (addr: { port: number }) => void; signal?: AbortSignal },
        handler: (request: Request) => Response | Promise<Response>,
      ): { finished: Promise<void>; addr: { port: number }; shutdown(): Promise<void> };
    }
  | undefined;

export type FetchHandler = (request: Request) => Response | Promise<Response>;

export interface ServeOptions {
  /** Interface to bind. Default 127.0.0.1: nothing is exposed to the network unless asked (`--host 0.0.0.0`). */
  host?: string;
  /** 0 (the default) lets the OS pick a free port. */
  port?: number;
}

export interface ServedApp {
  host: string;
  port: number;
  /** `http://host:port` (a wildcard bind is reported as 127.0.0.1 so the URL is reachable). */
  url: string;
  /** Stops accepting connections and closes open ones. Safe to call twice. */
  stop(): Promise<void>;
}

/** Starts serving `handler`; resolves once the socket is listening. */
export async function serve(handler: FetchHandler, options: ServeOptions = {}): Promise<ServedApp> {
  const host = options.host ?? "127.0.0.1";
  const requestedPort = options.port ?? 0;
  const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  if (typeof Deno !== "undefined") {
    const controller = new AbortController();
    // Deno.serve is listening when it returns; an empty onListen keeps its "Listening on" line off stdout.
    const server = Deno.serve({ hostname: host, port: requestedPort, signal: controller.signal, onListen: () => {} }, handler);
    const port = server.addr.port;
    let stopped = false;
    return {
      host,
      port,
      url: `http://${urlHost}:${port}`,
      async stop() {
        if (stopped) return;
        stopped = true;
        controller.abort();
        await server.finished;
      },
    };
  }
  const server = Bun.serve({ hostname: host, port: requestedPort, fetch: handler, idleTimeout: 0 });
  const port = server.port!;
  let stopped = false;
  return {
    host,
    port,
    url: `http://${urlHost}:${port}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop(true);
    },
  };
}

/** Resolves on the first SIGINT or SIGTERM (and stops listening for them). */
export function waitForShutdownSignal(): Promise<"SIGINT" | "SIGTERM"> {
  return new Promise((resolve) => {
    const on = (signal: "SIGINT" | "SIGTERM") => () => {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      resolve(signal);
    };
    const onInt = on("SIGINT");
    const onTerm = on("SIGTERM");
    process.on("SIGINT", onInt);
    process.on("SIGTERM", onTerm);
  });
}

/** Whether a TCP port on `host` accepts connections right now (used to pick free ports and probe peers). */
export async function isPortFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  const net = await import("node:net");
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** Serves `handler` on a Unix socket at `path` (a sandbox reaches gym through it); resolves once it listens. */
export async function serveUnix(handler: FetchHandler, path: string): Promise<{ path: string; stop(): Promise<void> }> {
  if (typeof Deno !== "undefined") {
    const controller = new AbortController();
    const serveOn = (Deno as unknown as { serve(o: object, h: FetchHandler): { finished: Promise<void> } }).serve;
    const server = serveOn({ path, transport: "unix", signal: controller.signal, onListen: () => {} }, handler);
    return { path, stop: async () => (controller.abort(), await server.finished) };
  }
  const server = Bun.serve({ unix: path, fetch: handler });
  let stopped = false;
  return {
    path,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop(true);
    },
  };
}

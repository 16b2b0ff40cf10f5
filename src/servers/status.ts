/** What `gym env status` reports: the head server's instance list, each instance probed with `GET /`. */
import type { ServerInstanceInfo } from "./head.ts";

type Health = NonNullable<ServerInstanceInfo["status"]>;

/** Probes one URL the way NeMo Gym does: any HTTP answer is healthy (2 s timeout). */
export async function probe(url: string | null, timeoutMs = 2000): Promise<Health> {
  if (!url) return "unknown_error";
  try {
    await fetch(url, { signal: AbortSignal.timeout(timeoutMs) }).then((r) => r.arrayBuffer());
    return "success";
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError") return "timeout";
    return /ECONNREFUSED|connect|Unable to connect|ConnectionRefused/i.test(String((error as Error)?.message) + String((error as { code?: string })?.code)) ? "connection_error" : "unknown_error";
  }
}

/** The running servers known to the head server at `headUrl`, with health and uptime; undefined if it does not answer. */
export async function discoverServers(headUrl: string, now = Date.now() / 1000): Promise<ServerInstanceInfo[] | undefined> {
  let listed: ServerInstanceInfo[];
  try {
    const response = await fetch(`${headUrl}/server_instances`, { signal: AbortSignal.timeout(5000) });
    if (!response.ok) return undefined;
    listed = (await response.json()) as ServerInstanceInfo[];
  } catch {
    return undefined;
  }
  return Promise.all(
    listed.map(async (instance) => ({
      ...instance,
      uptime_seconds: now - (instance.start_time ?? now),
      status: await probe(instance.url),
    })),
  );
}

/** `0d 0h 0m 41.5s`, as NeMo Gym formats uptime. */
export function formatUptime(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  return `${days}d ${hours % 24}h ${minutes % 60}m ${(seconds - minutes * 60).toFixed(1)}s`;
}

/** The status report as NeMo Gym prints it (a Python-dict block per server, then the totals). */
export function formatStatus(servers: ServerInstanceInfo[]): string {
  if (servers.length === 0) return "No NeMo Gym servers found running.\n";
  const lines = ["", "NeMo Gym Server Status:", ""];
  servers.forEach((server, i) => {
    lines.push(`[${i + 1}] ${server.status === "success" ? "✓" : "✗"} ${server.process_name} (${server.server_type}/${server.name})`);
    lines.push("{");
    const shown: [string, unknown][] = [
      ["server_type", server.server_type],
      ["name", server.name],
      ["port", server.port],
      ["pid", server.pid],
      ["uptime_seconds", formatUptime(server.uptime_seconds ?? 0)],
    ];
    for (const [key, value] of shown) lines.push(`    '${key}': ${pyValue(value)},`);
    lines.push("}");
  });
  const healthy = servers.filter((s) => s.status === "success").length;
  lines.push("", `${servers.length} servers found (${healthy} healthy, ${servers.length - healthy} unhealthy)`, "");
  return `${lines.join("\n")}\n`;
}

function pyValue(value: unknown): string {
  if (value === null || value === undefined) return "None";
  return typeof value === "string" ? `'${value}'` : String(value);
}

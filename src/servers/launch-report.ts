/** What `gym env start` prints: the instance list (NeMo Gym's banner layout) and model-endpoint readiness warnings. */
import type { ServerInstanceInfo } from "./head.ts";
import type { ServerInstance } from "./instances.ts";
import { maskUrlUserinfo } from "../config/secrets.ts";

const RULE = "#".repeat(100);

/** The "Server Instances" banner with one Python-dict block per server (start_time/status/uptime left out, as NeMo Gym does). */
export function formatInstanceList(instances: ServerInstanceInfo[]): string {
  const lines = ["", RULE, "#", "# Server Instances", "#", RULE, ""];
  instances.forEach((inst, i) => {
    lines.push(`[${i + 1}] ${inst.process_name} (${inst.server_type}/${inst.name})`, "{");
    for (const [key, value] of Object.entries(inst)) {
      if (key === "start_time" || key === "status" || key === "uptime_seconds") continue;
      lines.push(`    '${key}': ${value === null ? "None" : typeof value === "string" ? `'${value}'` : value},`);
    }
    lines.push("}");
  });
  lines.push(RULE, "");
  return `${lines.join("\n")}\n`;
}

/**
 * Probes every model server's `*base_url` once (`<base>/models` for a /v1 URL, else the URL; any HTTP answer
 * counts) and returns a warning per endpoint that did not answer. NeMo Gym waits up to 600 s and aborts; we
 * start anyway and warn, since built-in mock/replay models need no endpoint.
 */
export async function probeModelEndpoints(instances: ServerInstance[], timeoutMs = 5000): Promise<string[]> {
  return (await probeModelEndpointsDetailed(instances, timeoutMs)).map((p) => p.message);
}

/** One model endpoint that is not ready: why (URL passwords masked), and whether it refused the connection outright. */
export interface EndpointProblem {
  message: string;
  /** Nothing listens at that address (connection refused, unknown host): waiting rarely helps. */
  refused: boolean;
}

/** Like probeModelEndpoints; a 503 answer ("starting") counts as not ready. */
export async function probeModelEndpointsDetailed(instances: ServerInstance[], timeoutMs = 5000): Promise<EndpointProblem[]> {
  const targets: [string, string][] = [];
  for (const instance of instances) {
    if (instance.serverType !== "responses_api_models") continue;
    for (const [key, value] of Object.entries(instance.block)) {
      if (!key.endsWith("base_url")) continue;
      for (const url of Array.isArray(value) ? value : [value]) {
        if (typeof url === "string" && /^https?:\/\//.test(url)) targets.push([`${instance.name}.${key}`, url]);
      }
    }
  }
  const warnings = await Promise.all(
    targets.map(async ([key, url]) => {
      const probeUrl = /\/v1\/?$/.test(url) ? `${url.replace(/\/$/, "")}/models` : url;
      const shown = maskUrlUserinfo(url);
      const check = `Check it with \`curl -i ${maskUrlUserinfo(probeUrl)}\`.`;
      try {
        const reply = await fetch(probeUrl, { signal: AbortSignal.timeout(timeoutMs) });
        await reply.arrayBuffer();
        if (reply.status === 503) return { message: `model endpoint ${shown} (from \`${key}\`) answers 503: it is still starting. ${check}`, refused: false };
        return undefined;
      } catch (error) {
        const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
        const refused = code === "ECONNREFUSED" || code === "ConnectionRefused" || code === "ENOTFOUND";
        const why = code === "ECONNREFUSED" || code === "ConnectionRefused" ? "refused the connection (nothing listens there)" : code === "ENOTFOUND" ? "names a host that does not resolve" : "did not answer";
        return { message: `model endpoint ${shown} (from \`${key}\`) ${why}; rollouts will fail until it answers. ${check}`, refused };
      }
    }),
  );
  return warnings.filter((w): w is EndpointProblem => !!w);
}

/** What `gym env start` prints: the instance list (NeMo Gym's banner layout) and model-endpoint readiness warnings. */
import type { ServerInstanceInfo } from "./head.ts";
import type { ServerInstance } from "./instances.ts";

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
      try {
        await fetch(probeUrl, { signal: AbortSignal.timeout(timeoutMs) }).then((r) => r.arrayBuffer());
        return undefined;
      } catch {
        return `model endpoint ${url} (from \`${key}\`) did not answer; rollouts will fail until it does. Check it with \`curl -i ${probeUrl}\`.`;
      }
    }),
  );
  return warnings.filter((w): w is string => !!w);
}

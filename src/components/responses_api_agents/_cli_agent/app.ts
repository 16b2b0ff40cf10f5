/**
 * A CLI agent as a NeMo Gym agent server, for dataset rows: `/v1/responses` runs the CLI once on the request's
 * instruction (the user messages; system/developer text goes before it) in a fresh sandbox (`sandbox`: local by
 * default; `image` for a container provider) whose working folder is `cwd` (default /app), and answers the
 * Responses-shaped record of its model calls; `/run` seeds the resources server, runs it and verifies the answer,
 * adding `turns_used` and `finished_naturally` as NeMo Gym's codex_agent does; `/aggregate_metrics` is the
 * resources server's.
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { dumpResponse } from "../../../protocol/responses-dump.ts";
import { buildVerifyRequest, checkRunRequest, dumpRunRow, orderRunResult } from "../../../protocol/run.ts";
import { sandboxProvider, type SandboxHandle } from "../../../sandbox/provider.ts";
import { createGymApp, forwardJson, validationFailure } from "../../../servers/gym-app.ts";
import type { ServerFactory } from "../../../servers/registry.ts";
import { jsonRoute, routeJson } from "../../../servers/routes.ts";
import { sessionCookieName } from "../../../servers/session.ts";
import type { CliAgentConfig, CliAgentDefinition } from "./agent.ts";
import { prepareCliRun } from "./episode.ts";
import { rolloutResponse } from "./trajectory.ts";

const textOf = (content: unknown): string =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map((p) => String((p as JsonObject).text ?? "")).join("") : "";

/** The instruction a CLI gets from Responses params: system/developer text, then the user text. */
export function instructionOf(params: JsonObject): string {
  const input = typeof params.input === "string" ? [{ role: "user", content: params.input }] : ((params.input as JsonObject[] | undefined) ?? []);
  const system = [typeof params.instructions === "string" ? params.instructions : "", ...input.filter((m) => m.role === "system" || m.role === "developer").map((m) => textOf(m.content))].filter(Boolean);
  const user = input.filter((m) => m.role === "user" || (m.type === "message" && !m.role)).map((m) => textOf(m.content)).filter(Boolean);
  return [...system, ...user].join("\n\n");
}

export function cliAgentFactory(definition: CliAgentDefinition): ServerFactory {
  return (block, context) => {
    const config = block as unknown as CliAgentConfig & { resources_server?: { name: string }; sandbox?: string; image?: string; cwd?: string | null };
    const app = createGymApp({ cookieName: sessionCookieName(definition.implementation, config.name), rolloutPrefix: "agent" });
    let rollouts = 0;

    async function respond(params: JsonObject, rolloutId: string): Promise<{ response: JsonObject; turns: number; naturally: boolean }> {
      if (!config.model_server) throw new Error(`${config.name}: model_server is not configured`);
      const provider = await sandboxProvider(config.sandbox ?? "local");
      const run = await prepareCliRun(definition, config, context.servers.get(config.model_server.name), rolloutId);
      const workdir = config.cwd || "/app";
      const timeoutS = config.timeout ?? 600;
      let handle: SandboxHandle | null = null;
      try {
        handle = await provider.create({ workdir, image: config.image, network: false, ttlS: timeoutS + 900, label: config.name, mounts: run.mounts });
        const episode = await run.run(provider, handle, { instruction: instructionOf(params), workdir, agentTimeoutSec: timeoutS });
        const response = rolloutResponse(episode.calls, episode.usage, config.model ?? "") as unknown as JsonObject;
        const output = response.output as JsonObject[];
        const last = output[output.length - 1];
        return { response, turns: output.filter((o) => o.type === "message").length, naturally: episode.status === "completed" && last?.type === "message" && Boolean(episode.calls.at(-1)?.text) };
      } finally {
        if (handle) await provider.close(handle);
        await run.close();
      }
    }

    jsonRoute(app, "/v1/responses", async (request) => {
      const params = await routeJson<JsonObject>(request);
      const { response } = await respond(params, `${config.name.replace(/[^A-Za-z0-9._-]/g, "-")}-${++rollouts}`);
      return { json: dumpResponse(response as never) };
    });

    jsonRoute(app, "/run", async (request) => {
      const body = await routeJson(request);
      const checked = checkRunRequest(body);
      if (!checked.ok) throw validationFailure(checked.error);
      const row = checked.value as JsonObject;
      if (!config.resources_server) throw new Error(`${config.name}: resources_server is not configured`);
      const resources = context.servers.get(config.resources_server.name);
      const dumped = dumpRunRow(row);
      const seeded = await resources.call("/seed_session", dumped, { cookies: request.cookies(), readOnlyAnswer: true });
      const rolloutId = row._ng_task_index === undefined || row._ng_task_index === null ? `${++rollouts}-0` : `${row._ng_task_index}-${row._ng_rollout_index ?? 0}`;
      const episode = await respond(row.responses_create_params as JsonObject, rolloutId);
      const verified = await resources.call<JsonObject>("/verify", buildVerifyRequest(dumped, episode.response), { cookies: seeded.cookies, readOnlyAnswer: true });
      return { json: { ...orderRunResult(verified.body), turns_used: episode.turns, finished_naturally: episode.naturally } };
    });
    app.post("/aggregate_metrics", async (c) => forwardJson(c, context.servers.get(config.resources_server!.name), "/aggregate_metrics"));
    return app;
  };
}

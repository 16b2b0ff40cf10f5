/**
 * The model endpoint a CLI in a sandbox talks to: gym's rollout gateway (servers/model-api: it accepts only this
 * rollout's token, sends each call to the model server under /ng-rollout/<id> and captures it) served on a Unix
 * socket in a folder shown read-only in the sandbox, with the turn limit in front: a call past `maxTurns` is
 * refused with a 429 the CLI reports and stops on. The CLI never sees a real credential: the model server has it.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveUnix } from "../../../runtime/serve.ts";
import type { ServerClient } from "../../../servers/client.ts";
import { rolloutGateway, RolloutTokens } from "../../../servers/model-api/index.ts";
import { captureCall, type CapturedCall } from "./capture.ts";

export interface GatewayOptions {
  /** The model server the rollout uses (in-process or HTTP). */
  model: ServerClient;
  /** The rollout's id (path-safe: letters, digits, `.`, `_`, `-`). */
  rolloutId: string;
  /** Model calls allowed (null: no limit). */
  maxTurns: number | null;
  log?: (line: string) => void;
}

export interface Gateway {
  /** Host folder holding `model.sock` (mount it in the sandbox). */
  dir: string;
  socket: string;
  token: string;
  /** The calls so far, in the order they completed. */
  calls(): CapturedCall[];
  /** Calls refused because the turn limit was reached. */
  refusedTurns: number;
  /** Revokes the token and stops serving; idempotent. */
  stop(): Promise<void>;
}

const refuse = (maxTurns: number) =>
  new Response(JSON.stringify({ error: { type: "rate_limit_error", code: "max_turns", message: `max_turns (${maxTurns}) model calls reached; the agent must stop` } }), { status: 429, headers: { "content-type": "application/json" } });

export async function openGateway(options: GatewayOptions): Promise<Gateway> {
  const dir = mkdtempSync(join(tmpdir(), "gym-agent-gw-"));
  chmodSync(dir, 0o755);
  const socket = join(dir, "model.sock");
  const tokens = new RolloutTokens();
  const token = tokens.mint(options.rolloutId);
  const gateway = rolloutGateway({ model: options.model, tokens });
  const state = { refusedTurns: 0, started: 0 };
  const served = await serveUnix(async (request) => {
    // Counted when a call starts (the gateway records it when it ends): concurrent calls cannot pass the limit.
    const counts = request.method === "POST" && tokens.entry(bearerOrKey(request)) !== undefined;
    if (counts && options.maxTurns !== null && state.started >= options.maxTurns) {
      state.refusedTurns++;
      options.log?.(`model call ${state.started + 1} refused: max_turns (${options.maxTurns}) reached`);
      return refuse(options.maxTurns);
    }
    if (counts) state.started++;
    return gateway.fetch(request);
  }, socket);
  chmodSync(socket, 0o777); // the sandbox user (nobody when gym is root) connects
  let stopped = false;
  return {
    dir,
    socket,
    token,
    calls: () => tokens.calls(token).map(captureCall),
    get refusedTurns() {
      return state.refusedTurns;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      tokens.revoke(token);
      await served.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function bearerOrKey(request: Request): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  return bearer?.[1] ?? request.headers.get("x-api-key") ?? undefined;
}

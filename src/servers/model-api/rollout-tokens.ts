/**
 * Per-rollout tokens for coding-agent CLIs: gym mints a token bound to one rollout id and hands the CLI only that
 * token (never a real credential); the rollout gateway accepts a call only with a live token, sends it to the
 * model server under that rollout, and captures each completed call (request, complete answer, usage) into the
 * rollout's record. Revoking a token ends its calls (they are answered 401) and hands back what was captured.
 *
 * For an agent (codex_agent, opencode_agent, claude_code_agent):
 *   const token = tokens.mint(rolloutId);         // e.g. "0-1" (task-rollout), unique among live rollouts
 *   // run the CLI with OPENAI_API_KEY / ANTHROPIC_API_KEY = token and the gateway's URL as base URL
 *   const calls = tokens.revoke(token);           // the rollout's model calls, in order, with usage
 */
import type { Tokens } from "../../protocol/usage.ts";
import type { Cookies } from "../cookies.ts";
import type { ModelApiExchange } from "./answer.ts";

/** One model call a rollout's CLI made, as the gateway captured it. */
export interface RolloutModelCall extends ModelApiExchange {
  rolloutId: string;
  /** A fresh id (32 hex digits), as NeMo Gym's capture names each call. */
  modelCallId: string;
  /** 0, 1, … in the order the calls completed. */
  callIndex: number;
  /** The answer's usage (Responses or Chat form), when it reported one. */
  usage: Tokens | undefined;
}

/** What the gateway keeps for one live token. */
export interface RolloutEntry {
  readonly rolloutId: string;
  readonly calls: RolloutModelCall[];
  /** The model server's session cookies for this rollout (so a sticky server keeps one replica per rollout). */
  cookies: Cookies;
}

const PREFIX = "gym-rollout-";

/** The live tokens of one process's rollouts. */
export class RolloutTokens {
  private readonly live = new Map<string, RolloutEntry>();

  /** A new token bound to `rolloutId` (a path-safe id: letters, digits, `.`, `_`, `-`). */
  mint(rolloutId: string): string {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(rolloutId)) throw new Error(`A rollout id must be letters, digits, '.', '_' or '-' (it goes into the model server's URL); got ${JSON.stringify(rolloutId)}`);
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    const token = PREFIX + [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    this.live.set(token, { rolloutId, calls: [], cookies: {} });
    return token;
  }

  /** The live entry a presented credential names, else undefined. */
  entry(token: string | undefined): RolloutEntry | undefined {
    return token && token.startsWith(PREFIX) ? this.live.get(token) : undefined;
  }

  /** The rollout a live token is bound to. */
  rolloutOf(token: string): string | undefined {
    return this.entry(token)?.rolloutId;
  }

  /** The calls captured so far under a live token (a copy). */
  calls(token: string): RolloutModelCall[] {
    return [...(this.entry(token)?.calls ?? [])];
  }

  /** Ends a token: later calls with it are refused. Returns the calls captured under it. */
  revoke(token: string): RolloutModelCall[] {
    const entry = this.live.get(token);
    this.live.delete(token);
    return entry ? entry.calls : [];
  }
}

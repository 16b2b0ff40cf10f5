/** `--batch`: the Batch API transport for this process's model calls, turned on by a run and read by the model-call path. */
import { GymError } from "../../../errors.ts";
import { BatchJournal, batchJournalPath } from "./journal.ts";
import { BatchTransport, type BatchSettings } from "./transport.ts";

export { BatchLineFailed, BatchTransport } from "./transport.ts";
export { BatchJournal, batchJournalPath } from "./journal.ts";

let active: BatchTransport | undefined;

/** Agents whose rollout is one policy call (plus its judges): the ones `--batch` applies to. */
const SINGLE_CALL_AGENTS = new Set(["simple_agent"]);

/**
 * Turns the Batch API on for a run whose rollouts go to `rolloutsPath` (`+batch_api=true`, which `--batch` sets),
 * or returns undefined when the run does not ask for it. Refuses agents that make several model calls per rollout.
 */
export function startBatchTransport(config: Record<string, unknown>, rolloutsPath: string, agents: { name: string; implementation?: string }[], resume: boolean): BatchTransport | undefined {
  const flag = config.batch_api;
  if (flag === undefined || flag === null || flag === false || flag === "false") return undefined;
  if (flag !== true && flag !== "true") throw new GymError("E_CONFIG", `batch_api must be true or false, got ${JSON.stringify(flag)}.`, { hint: "Pass --batch (or +batch_api=true) to send model calls through the provider's Batch API." });
  const multi = agents.find((a) => !SINGLE_CALL_AGENTS.has(a.implementation ?? ""));
  if (multi) {
    throw new GymError("E_USAGE", `--batch does not apply to agent '${multi.name}' (${multi.implementation ?? "unknown"}): its rollouts make several model calls in turn, and each would wait for a batch (up to 24 h).`, {
      hint: `--batch works with ${[...SINGLE_CALL_AGENTS].join(", ")} (one policy call per rollout); leave out --batch for this agent.`,
    });
  }
  const settings: BatchSettings = {
    maxRequests: positive(config, "batch_max_requests", 50_000),
    maxBytes: positive(config, "batch_max_bytes", 190_000_000),
    sendDelayMs: positive(config, "batch_send_delay_s", 2) * 1000,
    pollFirstMs: positive(config, "batch_poll_first_s", 1) * 1000,
    pollMaxMs: positive(config, "batch_poll_max_s", 60) * 1000,
  };
  active = new BatchTransport(new BatchJournal(batchJournalPath(rolloutsPath)), settings, resume);
  return active;
}

/** The transport of this process's model calls, when `--batch` turned it on. */
export function batchTransport(): BatchTransport | undefined {
  return active;
}

export function batchTransportEnabled(): boolean {
  return active !== undefined;
}

/** Turns it off again (the end of a run, tests). */
export function stopBatchTransport(): void {
  active = undefined;
}

function positive(config: Record<string, unknown>, key: string, fallback: number): number {
  const value = config[key];
  if (value === undefined || value === null) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new GymError("E_CONFIG", `${key} must be a number > 0, got ${JSON.stringify(value)}.`, { hint: `For example +${key}=${fallback}.` });
  return n;
}

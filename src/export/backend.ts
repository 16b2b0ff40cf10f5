/** What a tracking backend (MLflow, W&B) offers gym: open a run, log the config, metrics and rollouts, close it. */

/** One open run on a backend. Every call may throw; callers decide whether that fails the export or is reported. */
export interface TrackingRun {
  /** The backend's run id (written to `<stem>_<exporter>_run_id` and into receipts). */
  readonly id: string;
  /** A link a person can open, when the backend has one. */
  readonly url?: string;
  logConfig(config: Record<string, unknown>): Promise<void>;
  logMetrics(metrics: Record<string, unknown>): Promise<void>;
  logRollouts(rows: Record<string, unknown>[]): Promise<void>;
  /** Marks the run finished (or failed). */
  close(ok: boolean): Promise<void>;
}

/** A backend, ready to open runs with the settings of one export. */
export interface TrackingBackend {
  readonly name: "mlflow" | "wandb";
  open(): Promise<TrackingRun>;
}

/** A failed backend call: the backend's own message, the URL, and (for the person) what to check. */
export class BackendError extends Error {
  constructor(
    readonly backend: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "BackendError";
  }
}

/** fetch with a deadline; a timeout or refused connection becomes a BackendError naming the URL. */
export async function backendFetch(backend: string, url: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(init.timeoutMs ?? 60_000) });
  } catch (error) {
    const e = error as Error;
    const why = e.name === "TimeoutError" ? `no answer within ${(init.timeoutMs ?? 60_000) / 1000} s` : e.message;
    throw new BackendError(backend, `${backend} at ${new URL(url).origin} could not be reached: ${why}`);
  }
  if (!response.ok) {
    const body = (await response.text()).slice(0, 500).trim();
    throw new BackendError(backend, `${backend} answered ${response.status} to ${init.method ?? "GET"} ${new URL(url).pathname}${body ? `: ${body}` : ""}`, response.status);
  }
  return response;
}

/**
 * NeMo Gym's metric names for a run: `<agent>/<key>` for each agent's scalar metrics and
 * `key_metrics/<agent>/<key>` for its key metrics, from `<stem>_aggregate_metrics.json`.
 */
export function flatMetrics(aggregate: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const scalar = (v: unknown) => v === null || ["boolean", "number", "string"].includes(typeof v);
  for (const entry of Array.isArray(aggregate) ? aggregate : []) {
    const agent = (entry as { agent_ref?: { name?: string } })?.agent_ref?.name;
    if (typeof agent !== "string") continue;
    for (const [k, v] of Object.entries((entry as { agent_metrics?: Record<string, unknown> }).agent_metrics ?? {})) if (scalar(v)) out[`${agent}/${k}`] = v;
    for (const [k, v] of Object.entries((entry as { key_metrics?: Record<string, unknown> }).key_metrics ?? {})) if (scalar(v)) out[`key_metrics/${agent}/${k}`] = v;
  }
  return out;
}

/** A rollout as exporters send it (projection 1): the trajectory and raw model-call payloads left out, as NeMo Gym does. */
export const ROLLOUT_PROJECTION_VERSION = 1;
export function rolloutForExport(row: Record<string, unknown>): Record<string, unknown> {
  const { ng_trajectory: _t, ng_model_call_capture: capture, ...rest } = row;
  if (capture && typeof capture === "object" && !Array.isArray(capture)) {
    const c = { ...(capture as Record<string, unknown>) };
    if (Array.isArray(c.calls)) c.calls = c.calls.map((call) => Object.fromEntries(Object.entries(call as object).filter(([k]) => !["request", "response", "request_raw", "response_raw"].includes(k))));
    return { ...rest, ng_model_call_capture: c };
  }
  return rest;
}

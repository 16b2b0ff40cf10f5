/** One re-verification: POST the payload to /verify, and turn the answer into the line to write (stamped, Python numbers kept). */
import type { Row } from "../../jsonl/read.ts";
import { parsePythonJson, stringifyPython } from "../../metrics/pyjson.ts";
import { isServerCallError, type ServerDirectory } from "../../servers/client.ts";
import { verifyPayload, type InputEntry } from "./inputs.ts";
import { maskSecretText } from "../../config/secrets.ts";
import { responseCacheEnabled, runInCallScope } from "../../servers/calls/cache/index.ts";
import { batchTransportEnabled } from "../../servers/calls/batch/index.ts";

/** A row picked for verification. */
export interface VerifyJob {
  entry: InputEntry;
  /** The rollout (or sidecar) row whose `response` is replayed. */
  rollout: Row;
  source: string;
  line: number;
}

export type VerifyOutcome =
  | { kind: "ok"; job: VerifyJob; body: Row; line: string }
  | { kind: "failed"; job: VerifyJob; status: number | null; errorType: string; message: string; body: string };

/** Top-level keys whose presence in a verify reply means it must be parsed (failure routing, echoed stamps). */
const MARKERS = /"(?:_ng_failure_class|_ng_no_persist|_ng_task_index|_ng_rollout_index|agent_ref|_ng_environment_server|task_source|skills_ref)"/;

/** Rollout fields 0.7 sends to /verify along with the stored response (collection.md §6.4 step 5). */
const CARRIED = ["deliverables_dir", "reference_ids"];

/** Calls `/verify` on the job's resources server. Never throws: a failed call is an outcome. */
export async function verifyOne(job: VerifyJob, servers: ServerDirectory, signal?: AbortSignal): Promise<VerifyOutcome> {
  const extra = CARRIED.some((k) => Object.hasOwn(job.rollout, k)) ? Object.fromEntries(CARRIED.filter((k) => Object.hasOwn(job.rollout, k)).map((k) => [k, job.rollout[k]])) : undefined;
  const body = verifyPayload(job.entry, job.rollout.response, extra);
  const server = job.entry.server!;
  try {
    const post = () => servers.get(server).post("/verify", undefined, { body, headers: { "content-type": "application/json" }, signal });
    // With the response cache on, the judge calls of one rollout are keyed by its repeat index (as in eval run);
    // with --batch, the Batch API journal records their (task, rollout).
    const cached = responseCacheEnabled();
    const scoped = cached || batchTransportEnabled() ? runInCallScope(job.rollout._ng_rollout_index, post, job.rollout._ng_task_index) : undefined;
    const reply = scoped ? await scoped.result : await post();
    if (!reply.ok) return { kind: "failed", job, status: reply.status, errorType: "HTTPStatusError", message: `POST /verify on '${server}' answered ${reply.status}`, body: reply.text };
    // Fast path: a reply naming none of the routing or stamp keys needs no parse (its text is written as is).
    const t = reply.text.trim();
    // An ATIF source's provenance is kept in the result (never sent to the verifier).
    let stamps = job.rollout._ng_atif_provenance ? { ...job.entry.stamps, _ng_atif_provenance: job.rollout._ng_atif_provenance } : job.entry.stamps;
    if (scoped && cached) stamps = { ...stamps, _ng_response_cache: scoped.counts };
    if (t.startsWith("{") && t.endsWith("}") && !t.includes("\n") && !MARKERS.test(t)) return { kind: "ok", job, body: {}, line: stampedLine(t, {}, stamps) };
    let parsed: unknown;
    try {
      parsed = JSON.parse(reply.text);
    } catch {
      return { kind: "failed", job, status: reply.status, errorType: "JSONDecodeError", message: `POST /verify on '${server}' answered ${reply.status} with a body that is not JSON`, body: reply.text };
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      return { kind: "failed", job, status: reply.status, errorType: "TypeError", message: `POST /verify on '${server}' answered a JSON ${Array.isArray(parsed) ? "array" : typeof parsed}, not an object`, body: reply.text };
    }
    return { kind: "ok", job, body: parsed as Row, line: stampedLine(reply.text, parsed as Row, stamps) };
  } catch (error) {
    const status = isServerCallError(error) ? (error.status ?? null) : null;
    return { kind: "failed", job, status, errorType: (error as Error)?.name ?? "Error", message: (error as Error)?.message ?? String(error), body: "" };
  }
}

/**
 * The verify answer with the identity stamps set (as NeMo Gym does: `result[k] = row[k]`). The server's
 * own text is kept and the missing stamps are appended, so its number formatting (`1.0`) survives; a stamp
 * that disagrees with an echoed value is replaced in place through a Python-typed re-serialisation.
 */
export function stampedLine(text: string, body: Row, stamps: Row): string {
  let appended = "";
  let conflict = false;
  for (const [k, v] of Object.entries(stamps)) {
    if (Object.hasOwn(body, k)) conflict ||= JSON.stringify(body[k]) !== JSON.stringify(v);
    else appended += `,${JSON.stringify(k)}:${JSON.stringify(v)}`;
  }
  const t = text.trim();
  if (conflict || t.includes("\n") || !t.endsWith("}")) {
    const row = parsePythonJson(text) as Row;
    Object.assign(row, stamps);
    return `${stringifyPython(row)}\n`;
  }
  if (!appended) return `${t}\n`;
  const head = t.slice(0, -1).trimEnd();
  return `${head.endsWith("{") ? head + appended.slice(1) : head + appended}}\n`;
}

/** The sidecar row for a /verify call that failed, when failures are routed to the sidecar (class agent_request_failed). */
export function failedCallRow(outcome: Extract<VerifyOutcome, { kind: "failed" }>, evidence: boolean): Row {
  const body = maskSecretText(outcome.body.length > 2000 ? `${outcome.body.slice(0, 2000)}…` : outcome.body);
  return {
    ...outcome.job.entry.stamps,
    _ng_failure_class: "agent_request_failed",
    _ng_failure_type: outcome.errorType,
    _ng_failure_message: maskSecretText(`verify_failed: ${outcome.message}`),
    _ng_failure_http_status: outcome.status,
    _ng_failure_response_body: body,
    ...(evidence ? { _ng_omitted_rollout: true, _ng_unrouted_run_error: true } : {}),
  };
}

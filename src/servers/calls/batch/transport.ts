/**
 * The Batch API transport of the model-call path (`--batch`): each call is queued as one line of a batch, the
 * queue is flushed by count, bytes or a send delay into a file upload and a batch, the batch is polled with
 * backoff, and each answer goes back to the call that waits for it. With `resume`, a call that an earlier
 * process already put in a batch waits for that batch (found by id, or by its idempotency key) instead.
 */
import { createHash, randomUUID } from "node:crypto";
import { ServerCallError } from "../../client.ts";
import { currentScope, type CallScope } from "../cache/scope.ts";
import { modelCallCounters } from "../counters.ts";
import { BatchApi, TERMINAL, type BatchObject } from "./api.ts";
import type { BatchJournal, JournaledBatch, JournaledRequest } from "./journal.ts";
import { splitEndpoint } from "../endpoint.ts";

/** The metadata field of a batch that holds its idempotency key. */
export const KEY_FIELD = "gym_idempotency_key";

export interface BatchSettings {
  /** Requests per batch (OpenAI allows 50,000). */
  maxRequests: number;
  /** Bytes of the request file (OpenAI allows 200 MB). */
  maxBytes: number;
  /** How long the first queued call waits for others before its batch is sent, ms. */
  sendDelayMs: number;
  /** First poll interval, ms (×1.5 each poll), and the longest. */
  pollFirstMs: number;
  pollMaxMs: number;
}

/** A batch line's answer: its HTTP status and body. */
interface LineAnswer {
  status: number;
  body: unknown;
}
/** A batch's answers by custom_id, or why there are none. */
type BatchResult = { batchId: string; answers: Map<string, LineAnswer> } | { batchId: string; failed: string };

interface Waiting {
  request: JournaledRequest;
  line: string;
  resolve: (answer: LineAnswer) => void;
  reject: (error: unknown) => void;
}

interface Queue {
  api: BatchApi;
  endpoint: string;
  items: Waiting[];
  bytes: number;
  timer?: ReturnType<typeof setTimeout>;
}

/** A request a batch did not answer: the rollout fails with this (its message names the class). */
export class BatchLineFailed extends ServerCallError {
  constructor(base: string, failureClass: string, detail: string, status?: number) {
    super({ server: `batch API ${base}`, path: "/batches", method: "POST", reason: "status", status: status ?? 500, body: `${failureClass}: ${detail}` });
    this.message = `${failureClass}: ${detail}`;
  }
}

export class BatchTransport {
  private readonly queues = new Map<string, Queue>();
  /** Requests earlier processes put in batches, by custom_id. */
  private readonly journaled = new Map<string, JournaledBatch>();
  private readonly results = new Map<string, Promise<BatchResult | undefined>>();
  private readonly occurrences = new WeakMap<CallScope, Map<string, number>>();
  /** Batches created by this process (for the summary). */
  created = 0;
  readonly journalPath: string;

  constructor(
    private readonly journal: BatchJournal,
    private readonly settings: BatchSettings,
    resume: boolean,
  ) {
    this.journalPath = journal.path;
    if (resume) for (const batch of journal.read()) for (const request of batch.requests) this.journaled.set(request.custom_id, batch);
  }

  /** Sends one model call through a batch and returns its answer (a non-200 line throws, as a direct call's status would). */
  async call<T>(url: string, body: unknown, options: { apiKey?: string; headers?: Record<string, string>; keep?: (text: string, value: unknown) => void }): Promise<T> {
    const { base, endpoint } = splitModelUrl(url);
    const headers: Record<string, string> = { ...options.headers, ...(options.apiKey && { authorization: `Bearer ${options.apiKey}` }) };
    const queueKey = `${base}\u0000${endpoint}\u0000${JSON.stringify(headers)}`;
    let queue = this.queues.get(queueKey);
    if (!queue) this.queues.set(queueKey, (queue = { api: new BatchApi(base, headers), endpoint, items: [], bytes: 0 }));
    const request = this.requestOf(url, body);
    modelCallCounters.calls++;
    const answer = (await this.fromEarlierBatch(queue.api, request.custom_id)) ?? (await this.enqueue(queue, request, body));
    if (answer.status !== 200) throw new BatchLineFailed(queue.api.base, "batch_request_failed", `the batch answered ${answer.status}: ${JSON.stringify(answer.body)}`, answer.status);
    modelCallCounters.succeeded++;
    const text = JSON.stringify(answer.body);
    options.keep?.(text, answer.body);
    return answer.body as T;
  }

  /** The journal line of this call: its (task, rollout) and a custom_id stable across processes. */
  private requestOf(url: string, body: unknown): JournaledRequest {
    const scope = currentScope();
    const hash = createHash("sha256").update(url).update("\u0000").update(JSON.stringify(body)).digest("hex").slice(0, 16);
    let seen = this.occurrences.get(scope);
    if (!seen) this.occurrences.set(scope, (seen = new Map()));
    const n = seen.get(hash) ?? 0;
    seen.set(hash, n + 1);
    const task = scope.task ?? null;
    const rollout = scope.repeat === "-" ? null : scope.repeat;
    return { custom_id: `t${task ?? "-"}-r${rollout ?? "-"}-${hash}-${n}`, task, rollout };
  }

  /** The answer an earlier process's batch holds for this request (undefined: none, so it is sent afresh). */
  private async fromEarlierBatch(api: BatchApi, customId: string): Promise<LineAnswer | undefined> {
    const batch = this.journaled.get(customId);
    if (!batch) return undefined;
    let result = this.results.get(batch.key);
    if (!result) this.results.set(batch.key, (result = this.reattach(api, batch)));
    const found = await result;
    // A failed or expired batch answered nothing: the request goes into a new batch.
    return found && "answers" in found && found.answers.get(customId)?.status === 200 ? found.answers.get(customId) : undefined;
  }

  private async reattach(api: BatchApi, batch: JournaledBatch): Promise<BatchResult | undefined> {
    let id = batch.batchId;
    if (!id) {
      // Killed between creating the batch and recording its id: the key in its metadata finds it.
      const found = await api.findByMetadata(KEY_FIELD, batch.key);
      if (!found) return undefined;
      id = found.id;
      await this.journal.created(batch.key, id);
    }
    process.stderr.write(`Batch API: re-attached to batch ${id} (${batch.requests.length} requests)\n`);
    try {
      return await this.poll(api, id);
    } catch (error) {
      // The provider no longer has it (deleted, or another account): its requests are sent again.
      if (!(error instanceof ServerCallError) || error.status !== 404) throw error;
      process.stderr.write(`Warning: Batch API: batch ${id} is unknown to ${api.base} (404); its unanswered requests go into a new batch\n`);
      return undefined;
    }
  }

  private enqueue(queue: Queue, request: JournaledRequest, body: unknown): Promise<LineAnswer> {
    const line = `${JSON.stringify({ custom_id: request.custom_id, method: "POST", url: queue.endpoint, body })}\n`;
    const bytes = Buffer.byteLength(line);
    if (queue.items.length && queue.bytes + bytes > this.settings.maxBytes) void this.flush(queue);
    return new Promise<LineAnswer>((resolve, reject) => {
      queue.items.push({ request, line, resolve, reject });
      queue.bytes += bytes;
      if (queue.items.length >= this.settings.maxRequests || queue.bytes >= this.settings.maxBytes) void this.flush(queue);
      else queue.timer ??= setTimeout(() => void this.flush(queue), this.settings.sendDelayMs);
    });
  }

  private async flush(queue: Queue): Promise<void> {
    clearTimeout(queue.timer);
    queue.timer = undefined;
    const items = queue.items;
    queue.items = [];
    queue.bytes = 0;
    if (!items.length) return;
    const key = `gym-${randomUUID()}`;
    try {
      await this.journal.submitting(key, items.map((i) => i.request));
      const fileId = await queue.api.upload(items.map((i) => i.line).join(""), `${key}.jsonl`);
      const batch = await queue.api.create(fileId, queue.endpoint, { [KEY_FIELD]: key });
      await this.journal.created(key, batch.id);
      this.created++;
      process.stderr.write(`Batch API: created batch ${batch.id} (${items.length} requests)\n`);
      const result = await this.poll(queue.api, batch.id, batch);
      for (const item of items) {
        if ("failed" in result) item.reject(new BatchLineFailed(queue.api.base, result.failed, `batch ${result.batchId} ended ${result.failed.replace(/^batch_/, "")} without answering this request`));
        else {
          const answer = result.answers.get(item.request.custom_id);
          if (answer) item.resolve(answer);
          else item.reject(new BatchLineFailed(queue.api.base, "batch_request_missing", `batch ${result.batchId} completed without a line for ${item.request.custom_id}`));
        }
      }
    } catch (error) {
      for (const item of items) item.reject(error);
    }
  }

  /** Polls a batch with backoff until it ends, then reads its output and error files. */
  private async poll(api: BatchApi, id: string, first?: BatchObject): Promise<BatchResult> {
    let batch = first ?? (await api.get(id));
    for (let wait = this.settings.pollFirstMs; !TERMINAL.has(batch.status); wait = Math.min(this.settings.pollMaxMs, wait * 1.5)) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      batch = await api.get(id);
    }
    if (batch.status !== "completed") return { batchId: id, failed: `batch_${batch.status}` };
    const answers = new Map<string, LineAnswer>();
    for (const fileId of [batch.output_file_id, batch.error_file_id]) {
      if (!fileId) continue;
      for (const text of (await api.content(fileId)).split("\n")) {
        if (!text.trim()) continue;
        const line = JSON.parse(text) as { custom_id: string; response?: { status_code: number; body: unknown } | null; error?: unknown };
        answers.set(line.custom_id, line.response ? { status: line.response.status_code, body: line.response.body } : { status: 500, body: line.error ?? null });
      }
    }
    return { batchId: id, answers };
  }
}

/** The operations the Batch API accepts. */
const BATCH_OPERATIONS = ["chat/completions", "completions", "responses", "embeddings"];

/** `http://host/v1/responses` → the API base `http://host/v1` and the batch endpoint `/v1/responses`. */
export function splitModelUrl(url: string): { base: string; endpoint: string } {
  const { base, operation } = splitEndpoint(url);
  if (!operation || !BATCH_OPERATIONS.includes(operation)) {
    const path = new URL(url).pathname;
    throw new ServerCallError({ server: `batch API ${url}`, path, method: "POST", reason: "status", status: 400, body: `--batch sends /v1/${BATCH_OPERATIONS.join(", /v1/")} calls; this model server calls ${path}` });
  }
  return { base, endpoint: `/v1/${operation}` };
}

/**
 * A provider's Batch API on loopback, for tests: OpenAI's `/v1/files` and `/v1/batches` with the real file and
 * batch objects (ids, the status lifecycle validating → in_progress → finalizing → completed, output_file_id,
 * error_file_id, request_counts, metadata, `GET /v1/batches?after=&limit=` newest first). Each line is answered by
 * `model` (a direct-call handler); direct calls to it are served too, and counted, to prove a run made none.
 */
import { Hono } from "hono";

type Status = "validating" | "in_progress" | "finalizing" | "completed" | "failed" | "expired";

interface FileObject {
  id: string;
  object: "file";
  bytes: number;
  created_at: number;
  filename: string;
  purpose: string;
  status: "processed";
  status_details: null;
  expires_at: null;
}

export interface BatchApiOptions {
  /** Answers one request (the line's method, url and body) as a direct call would be answered. */
  model: (request: Request) => Promise<Response>;
  /** Batches stay in_progress until `release()` (a batch in flight while the client is killed). */
  hold?: boolean;
  /** Batches end `expired` instead of answering (the 24 h window ran out). */
  expire?: boolean;
}

export interface BatchApiStats {
  /** Calls made directly to /v1/responses or /v1/chat/completions (not through a batch). */
  direct: number;
  /** Lines answered per custom_id, over every batch. */
  answered: Map<string, number>;
}

export interface BatchApiStandIn {
  fetch: (request: Request) => Response | Promise<Response>;
  stats: BatchApiStats;
  /** Every batch created, oldest first (the objects the API returns). */
  batches: Record<string, unknown>[];
  /** Lets held batches finish. */
  release(): void;
}

const now = () => Math.floor(Date.now() / 1000);

export function batchApiStandIn(options: BatchApiOptions): BatchApiStandIn {
  const app = new Hono();
  const files = new Map<string, { object: FileObject; content: string }>();
  const batches: (Record<string, unknown> & { id: string; status: Status })[] = [];
  const stats: BatchApiStats = { direct: 0, answered: new Map() };
  let held = options.hold ?? false;
  let n = 0;
  const id = (prefix: string) => `${prefix}_${(++n).toString(16).padStart(24, "0")}`;
  const error = (message: string, status: 400 | 404) => ({ error: { message, type: "invalid_request_error", param: null, code: null }, status });

  const addFile = (content: string, filename: string, purpose: string): FileObject => {
    const object: FileObject = { id: id("file"), object: "file", bytes: Buffer.byteLength(content), created_at: now(), filename, purpose, status: "processed", status_details: null, expires_at: null };
    files.set(object.id, { object, content });
    return object;
  };

  /** Runs the batch's lines through the model, then finalizes it (unless held). */
  const run = async (batch: (typeof batches)[number]) => {
    const input = files.get(batch.input_file_id as string)!.content.split("\n").filter(Boolean);
    const out: string[] = [];
    const errors: string[] = [];
    for (const text of input) {
      const line = JSON.parse(text) as { custom_id: string; method: string; url: string; body: unknown };
      const answer = await options.model(new Request(`http://batch.local${line.url}`, { method: line.method, body: JSON.stringify(line.body), headers: { "content-type": "application/json" } }));
      stats.answered.set(line.custom_id, (stats.answered.get(line.custom_id) ?? 0) + 1);
      const row = { id: id("batch_req"), custom_id: line.custom_id, response: { status_code: answer.status, request_id: id("req"), body: await answer.json() }, error: null };
      (answer.status === 200 ? out : errors).push(JSON.stringify(row));
    }
    while (held) await new Promise((resolve) => setTimeout(resolve, 20));
    if (options.expire) {
      Object.assign(batch, { status: "expired", expired_at: now(), request_counts: { total: input.length, completed: 0, failed: input.length } });
      return;
    }
    Object.assign(batch, { status: "finalizing", finalizing_at: now() });
    const output = out.length ? addFile(`${out.join("\n")}\n`, "batch_output.jsonl", "batch_output").id : null;
    const errorFile = errors.length ? addFile(`${errors.join("\n")}\n`, "batch_errors.jsonl", "batch_output").id : null;
    Object.assign(batch, { status: "completed", completed_at: now(), output_file_id: output, error_file_id: errorFile, request_counts: { total: input.length, completed: out.length, failed: errors.length } });
  };

  app.get("/v1/models", (c) => c.json({ object: "list", data: [{ id: "m", object: "model", created: 0, owned_by: "stand-in" }] }));
  for (const path of ["/v1/responses", "/v1/chat/completions"]) {
    app.post(path, (c) => {
      stats.direct++;
      return options.model(c.req.raw);
    });
  }
  app.post("/v1/files", async (c) => {
    const form = await c.req.formData();
    const file = form.get("file");
    const purpose = form.get("purpose");
    if (!(file instanceof Blob) || purpose !== "batch") return c.json(error("A file and purpose=batch are required.", 400), 400);
    return c.json(addFile(await file.text(), (file as File).name ?? "upload.jsonl", purpose));
  });
  app.get("/v1/files/:id", (c) => (files.has(c.req.param("id")) ? c.json(files.get(c.req.param("id"))!.object) : c.json(error("No such file.", 404), 404)));
  app.get("/v1/files/:id/content", (c) => (files.has(c.req.param("id")) ? c.text(files.get(c.req.param("id"))!.content) : c.json(error("No such file.", 404), 404)));
  app.post("/v1/batches", async (c) => {
    const body = (await c.req.json()) as { input_file_id?: string; endpoint?: string; completion_window?: string; metadata?: Record<string, string> | null };
    const file = body.input_file_id ? files.get(body.input_file_id) : undefined;
    if (!file) return c.json(error(`No such file: ${body.input_file_id}`, 400), 400);
    if (body.completion_window !== "24h") return c.json(error("completion_window must be 24h.", 400), 400);
    const lines = file.content.split("\n").filter(Boolean).map((l) => JSON.parse(l) as { url: string });
    if (lines.some((l) => l.url !== body.endpoint)) return c.json(error(`Every line's url must be the batch endpoint ${body.endpoint}.`, 400), 400);
    const batch = {
      id: id("batch"), object: "batch", endpoint: body.endpoint!, errors: null, input_file_id: file.object.id, completion_window: "24h", status: "validating" as Status,
      output_file_id: null, error_file_id: null, created_at: now(), in_progress_at: null, expires_at: now() + 86400, finalizing_at: null, completed_at: null, failed_at: null,
      expired_at: null, cancelling_at: null, cancelled_at: null, request_counts: { total: 0, completed: 0, failed: 0 }, metadata: body.metadata ?? null,
    };
    batches.push(batch);
    return c.json(batch);
  });
  app.get("/v1/batches/:id", (c) => {
    const batch = batches.find((b) => b.id === c.req.param("id"));
    if (!batch) return c.json(error("No such batch.", 404), 404);
    if (batch.status === "validating") {
      Object.assign(batch, { status: "in_progress", in_progress_at: now(), request_counts: { total: files.get(batch.input_file_id as string)!.content.split("\n").filter(Boolean).length, completed: 0, failed: 0 } });
      const shown = { ...batch };
      void run(batch);
      return c.json(shown);
    }
    return c.json(batch);
  });
  app.get("/v1/batches", (c) => {
    const limit = Math.min(100, Number(c.req.query("limit") ?? 20));
    const newestFirst = [...batches].reverse();
    const after = c.req.query("after");
    const start = after ? newestFirst.findIndex((b) => b.id === after) + 1 : 0;
    const data = newestFirst.slice(start, start + limit);
    return c.json({ object: "list", data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: start + limit < newestFirst.length });
  });
  return { fetch: app.fetch, stats, batches, release: () => (held = false) };
}

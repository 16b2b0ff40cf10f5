/** The provider's Batch API over HTTP (OpenAI-compatible `/v1/files` and `/v1/batches`), each request retried a few times on 429/5xx/connection failures. */
import { ServerCallError } from "../../client.ts";

/** A batch object as the provider returns it (the fields gym reads). */
export interface BatchObject {
  id: string;
  status: "validating" | "failed" | "in_progress" | "finalizing" | "completed" | "expired" | "cancelling" | "cancelled";
  output_file_id?: string | null;
  error_file_id?: string | null;
  metadata?: Record<string, string> | null;
  errors?: { data?: { message?: string }[] } | null;
}

export const TERMINAL = new Set(["failed", "completed", "expired", "cancelled"]);

/** One Batch API account: `base` is the model URL up to `/v1` (what `/responses` hangs off). */
export class BatchApi {
  constructor(
    readonly base: string,
    private readonly headers: Record<string, string>,
  ) {}

  /** Uploads the JSONL of requests (`purpose=batch`) and returns the file id. */
  async upload(jsonl: string, name: string): Promise<string> {
    const file = await this.send<{ id: string }>("POST", "/files", () => {
      const form = new FormData();
      form.append("purpose", "batch");
      form.append("file", new Blob([jsonl], { type: "application/jsonl" }), name);
      return form;
    });
    return file.id;
  }

  create(inputFileId: string, endpoint: string, metadata: Record<string, string>): Promise<BatchObject> {
    return this.send("POST", "/batches", () => JSON.stringify({ input_file_id: inputFileId, endpoint, completion_window: "24h", metadata }));
  }

  get(id: string): Promise<BatchObject> {
    return this.send("GET", `/batches/${encodeURIComponent(id)}`);
  }

  /** The batch whose metadata holds `key` under `field`, newest first through every page (undefined: none). */
  async findByMetadata(field: string, key: string): Promise<BatchObject | undefined> {
    let after: string | undefined;
    for (;;) {
      const page = await this.send<{ data: BatchObject[]; has_more?: boolean }>("GET", `/batches?limit=100${after ? `&after=${encodeURIComponent(after)}` : ""}`);
      const found = page.data.find((b) => b.metadata?.[field] === key);
      if (found) return found;
      if (!page.has_more || page.data.length === 0) return undefined;
      after = page.data[page.data.length - 1]!.id;
    }
  }

  /** A file's content (the output or error JSONL). */
  async content(fileId: string): Promise<string> {
    return this.send<string>("GET", `/files/${encodeURIComponent(fileId)}/content`, undefined, true);
  }

  private async send<T>(method: string, path: string, body?: () => BodyInit, asText = false): Promise<T> {
    const url = `${this.base}${path}`;
    for (let attempt = 0; ; attempt++) {
      let status: number | undefined;
      let text = "";
      try {
        const payload = body?.();
        const headers: Record<string, string> = { ...this.headers, ...(typeof payload === "string" && { "content-type": "application/json" }) };
        const response = await fetch(url, { method, headers, body: payload });
        status = response.status;
        text = await response.text();
        if (response.ok) return (asText ? text : JSON.parse(text)) as T;
      } catch (error) {
        if (status !== undefined) throw new ServerCallError({ server: `batch API ${this.base}`, path, method, reason: "invalid_json", status, body: text, cause: error });
        text = (error as Error).message;
      }
      const transient = status === undefined || status === 429 || status >= 500;
      if (!transient || attempt >= 5) {
        throw new ServerCallError({ server: `batch API ${this.base}`, path, method, reason: status === undefined ? "connection" : "status", status, body: text, detail: status === undefined ? text : undefined });
      }
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 500 * 2 ** attempt));
    }
  }
}

// The Batch API stand-in speaks the real API: the `openai` npm client uploads, creates, polls, pages and downloads
// against it as it would against api.openai.com.
import { afterAll, beforeAll, expect, test } from "bun:test";
import OpenAI, { toFile } from "openai";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import { batchApiStandIn, type BatchApiStandIn } from "../../../testing/batch-api.ts";
import { policyEndpoint } from "../../../testing/judge-mocks.ts";

let served: ServedApp;
let standIn: BatchApiStandIn;
let client: OpenAI;

beforeAll(async () => {
  standIn = batchApiStandIn({ model: policyEndpoint() });
  served = await serve(standIn.fetch);
  client = new OpenAI({ baseURL: `${served.url}/v1`, apiKey: "sk-test", maxRetries: 0 });
});
afterAll(() => served.stop());

test("the openai client runs a batch through the stand-in: file, lifecycle, output file, metadata, paging", async () => {
  const lines = [2, 3].map((i) => JSON.stringify({ custom_id: `q${i}`, method: "POST", url: "/v1/responses", body: { model: "m", input: [{ role: "user", content: `question ${i}` }] } })).join("\n");
  const file = await client.files.create({ file: await toFile(Buffer.from(lines), "in.jsonl"), purpose: "batch" });
  expect(file).toMatchObject({ object: "file", purpose: "batch", filename: "in.jsonl" });
  const created = await client.batches.create({ input_file_id: file.id, endpoint: "/v1/responses", completion_window: "24h", metadata: { gym_idempotency_key: "k1" } });
  expect(created.status).toBe("validating");
  const seen = new Set<string>([created.status]);
  let batch = created;
  while (batch.status !== "completed") {
    await new Promise((r) => setTimeout(r, 20));
    batch = await client.batches.retrieve(created.id);
    seen.add(batch.status);
  }
  expect([...seen]).toEqual(expect.arrayContaining(["validating", "in_progress", "completed"]));
  expect(batch.request_counts).toEqual({ total: 2, completed: 2, failed: 0 });
  expect(batch.error_file_id).toBeNull();
  const output = (await (await client.files.content(batch.output_file_id!)).text()).trim().split("\n").map((l) => JSON.parse(l));
  expect(output.map((l) => l.custom_id).sort()).toEqual(["q2", "q3"]);
  const q2 = output.find((l) => l.custom_id === "q2");
  expect(q2.response.status_code).toBe(200);
  expect(q2.response.body.output[0].content[0].text).toBe("The code word is answer-2.");

  await client.batches.create({ input_file_id: file.id, endpoint: "/v1/responses", completion_window: "24h", metadata: { gym_idempotency_key: "k2" } });
  const all: string[] = [];
  for await (const b of client.batches.list({ limit: 1 })) all.push(b.metadata?.gym_idempotency_key ?? "");
  expect(all).toEqual(["k2", "k1"]);
  expect(standIn.stats.direct).toBe(0);
});

// End to end on the compiled binary: `gym eval run --batch` against the Batch API stand-in on 127.0.0.1 — the same
// rewards as direct calls with no direct call, a kill -9 while a batch is in flight then --resume (by id, and by
// metadata when the id was never recorded), and an expired batch as failed rollouts.
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import { batchApiStandIn, type BatchApiOptions, type BatchApiStandIn } from "../../../testing/batch-api.ts";
import { ensureBinary, gym, gymBinary } from "../../../testing/binary.ts";
import { writeMcqaDataset } from "../../../testing/datasets.ts";

/** A policy that answers even questions right (\boxed{the expected letter}) and odd ones wrong. */
async function mcqaPolicy(request: Request): Promise<Response> {
  const body = (await request.json()) as { model: string; input: unknown };
  const i = Number(/Question (\d+)/.exec(JSON.stringify(body.input))?.[1] ?? 0);
  const text = i % 2 === 0 ? `\\boxed{${"ABCD"[(i * 7) % 4]}}` : "\\boxed{Z}";
  return Response.json({
    id: `resp_${i}`, created_at: 1700000000, model: body.model, object: "response", parallel_tool_calls: true, tool_choice: "auto", tools: [], status: "completed",
    output: [{ id: `msg_${i}`, type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }],
    usage: { input_tokens: 10 + i, input_tokens_details: { cached_tokens: 0 }, output_tokens: 7, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 17 + i },
  });
}

const TASKS = 6;
let dir: string;
let served: ServedApp | undefined;
const lines = (path: string) => (existsSync(join(dir, path)) ? readFileSync(join(dir, path), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : []);

beforeAll(async () => {
  await ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "gym-batch-"));
  writeMcqaDataset(join(dir, "tasks.jsonl"), TASKS);
}, 120_000);

afterEach(async () => {
  await served?.stop();
  served = undefined;
});

async function provider(options: Partial<BatchApiOptions> = {}): Promise<BatchApiStandIn> {
  const standIn = batchApiStandIn({ model: mcqaPolicy, ...options });
  served = await serve(standIn.fetch);
  return standIn;
}

const args = (out: string, extra: string[]) => ["eval", "run", "--resources-server", "mcqa", "--model-type", "openai_model", "--model", "m", "--model-url", `${served!.url}/v1`, "--model-api-key", "sk-test",
  "--input", "tasks.jsonl", "-o", `${out}/rollouts.jsonl`, "+batch_send_delay_s=0.2", "+batch_poll_first_s=0.05", "+batch_poll_max_s=0.2", ...extra];

const rewards = (out: string) => Object.fromEntries(lines(`${out}/rollouts.jsonl`).map((r) => [`${r._ng_task_index}-${r._ng_rollout_index}`, r.reward]));

function expectEachOnce(out: string) {
  const ids = lines(`${out}/rollouts.jsonl`).map((r) => `${r._ng_task_index}-${r._ng_rollout_index}`);
  expect(ids).toHaveLength(TASKS);
  expect(new Set(ids).size).toBe(TASKS);
}

/** Starts a --batch run, waits until its batch is created (and, with `recorded`, journaled), and kills it with SIGKILL. */
async function killWhileInFlight(standIn: BatchApiStandIn, out: string) {
  const child = spawn(gymBinary, args(out, ["--batch"]), { cwd: dir, stdio: "ignore" });
  const journal = `${out}/rollouts_batches.jsonl`;
  while (standIn.batches.length === 0 || !lines(journal).some((l) => l.event === "created")) await new Promise((r) => setTimeout(r, 20));
  child.kill("SIGKILL");
  await new Promise((r) => child.once("exit", r));
}

describe("gym eval run --batch (compiled binary)", () => {
  test("the same rewards as direct calls, with no direct call, in one batch", async () => {
    const direct = await provider();
    expect((await gym(args("direct", []), { cwd: dir })).code).toBe(0);
    expect(direct.stats.direct).toBe(TASKS);
    await served!.stop();
    const batched = await provider();
    const r = await gym(args("batched", ["--batch"]), { cwd: dir });
    expect(r.stderr).toContain("Batch API: 1 batch created");
    // Accounting counts batch answers like direct ones: 6 calls, Σ(10 + i + 7) tokens.
    expect(r.stderr).toContain("Model calls (this process, policy and judges): 6, 117 tokens");
    expect(r.code).toBe(0);
    expect(batched.stats.direct).toBe(0);
    expect(batched.batches).toHaveLength(1);
    expect(batched.batches[0]).toMatchObject({ status: "completed", request_counts: { total: TASKS, completed: TASKS, failed: 0 } });
    expectEachOnce("batched");
    expect(rewards("batched")).toEqual(rewards("direct"));
    expect(Object.values(rewards("batched")).filter((x) => x === 1).length).toBe(TASKS / 2);
    const journal = lines("batched/rollouts_batches.jsonl");
    expect(journal.map((l) => l.event)).toEqual(["submitting", "created"]);
    expect(journal[0].requests.map((q: { task: string }) => q.task).sort()).toEqual(["0", "1", "2", "3", "4", "5"]);
    expect((batched.batches[0]!.metadata as Record<string, string>).gym_idempotency_key).toBe(journal[0].key);
  }, 60_000);

  test("--batch with -o - is refused before any batch is made: its journal would have no home for --resume", async () => {
    const standIn = await provider();
    const r = await gym(["eval", "run", "--resources-server", "mcqa", "--model-type", "openai_model", "--model", "m", "--model-url", `${served!.url}/v1`, "--model-api-key", "sk-test", "--input", "tasks.jsonl", "-o", "-", "--batch"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--batch keeps its journal beside --output");
    expect(r.stdout).toBe("");
    expect(standIn.batches).toHaveLength(0);
  }, 60_000);

  test("+batch_max_requests=2 flushes 6 calls into 3 batches, each request in exactly one", async () => {
    const standIn = await provider();
    expect((await gym(args("small", ["--batch", "+batch_max_requests=2"]), { cwd: dir })).code).toBe(0);
    expect(standIn.batches.map((b) => (b.request_counts as { total: number }).total)).toEqual([2, 2, 2]);
    expect([...standIn.stats.answered.values()]).toEqual([1, 1, 1, 1, 1, 1]);
    expectEachOnce("small");
  }, 60_000);

  test("--batch --cache: answers from a batch are cached, so the same run again creates no batch", async () => {
    const standIn = await provider();
    const env = { NEMO_GYM_CACHE_DIR: join(dir, "cache") };
    expect((await gym(args("cached1", ["--batch", "--cache"]), { cwd: dir, env })).code).toBe(0);
    const again = await gym(args("cached2", ["--batch", "--cache"]), { cwd: dir, env });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("6 model calls served from the cache, 0 sent upstream");
    expect(standIn.batches).toHaveLength(1);
    expect(standIn.stats.direct).toBe(0);
    expect(rewards("cached2")).toEqual(rewards("cached1"));
  }, 60_000);

  test("kill -9 while the batch is in flight, then --resume: no second batch, every rollout saved once", async () => {
    const standIn = await provider({ hold: true });
    await killWhileInFlight(standIn, "killed");
    expect(lines("killed/rollouts.jsonl")).toHaveLength(0);
    standIn.release();
    const r = await gym(args("killed", ["--batch", "--resume"]), { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("re-attached to batch");
    expect(standIn.batches).toHaveLength(1);
    expect(standIn.stats.direct).toBe(0);
    expect([...standIn.stats.answered.values()].every((n) => n === 1)).toBe(true);
    expectEachOnce("killed");
    expect(Object.values(rewards("killed")).filter((x) => x === 1).length).toBe(TASKS / 2);
  }, 60_000);

  test("killed between creating the batch and recording its id: --resume finds it by its metadata", async () => {
    const standIn = await provider({ hold: true });
    await killWhileInFlight(standIn, "unrecorded");
    const journal = join(dir, "unrecorded/rollouts_batches.jsonl");
    writeFileSync(journal, readFileSync(journal, "utf8").split("\n").filter((l) => !l.includes('"created"')).join("\n"));
    standIn.release();
    const r = await gym(args("unrecorded", ["--batch", "--resume"]), { cwd: dir });
    expect(r.code).toBe(0);
    expect(standIn.batches).toHaveLength(1);
    expect(lines("unrecorded/rollouts_batches.jsonl").filter((l) => l.event === "created")[0].batch_id).toBe(standIn.batches[0]!.id);
    expectEachOnce("unrecorded");
  }, 60_000);

  test("an expired batch: each of its rollouts fails (agent_run_error, replayed by --resume), its message naming batch_expired", async () => {
    await provider({ expire: true });
    const r = await gym(args("expired", ["--batch", "+route_failures_to_sidecar=true"]), { cwd: dir });
    expect(r.code).not.toBe(0);
    const failures = lines("expired/rollouts_failures.jsonl");
    expect(failures).toHaveLength(TASKS);
    for (const f of failures) expect([f._ng_failure_class, f._ng_failure_message]).toEqual(["agent_run_error", expect.stringContaining("batch_expired: batch batch_")]);
  }, 60_000);

  test("--resume where the provider no longer knows the journaled batch (404): a warning, and one new batch", async () => {
    const first = await provider({ hold: true });
    await killWhileInFlight(first, "forgotten");
    const port = served!.port;
    await served!.stop();
    first.release();
    // Another provider behind the same URL: the journaled batch id means nothing to it.
    const second = batchApiStandIn({ model: mcqaPolicy });
    served = await serve(second.fetch, { port });
    const r = await gym(args("forgotten", ["--batch", "--resume"]), { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("is unknown to");
    expect(second.batches).toHaveLength(1);
    expectEachOnce("forgotten");
  }, 60_000);

  test("--resume after an expired batch sends its requests again, in one new batch", async () => {
    const options = { model: mcqaPolicy, expire: true };
    const standIn = batchApiStandIn(options);
    served = await serve(standIn.fetch);
    expect((await gym(args("retried", ["--batch", "+route_failures_to_sidecar=true"]), { cwd: dir })).code).not.toBe(0);
    options.expire = false;
    const r = await gym(args("retried", ["--batch", "--resume", "+route_failures_to_sidecar=true"]), { cwd: dir });
    expect(r.code).toBe(0);
    expect(standIn.batches.map((b) => b.status)).toEqual(["expired", "completed"]);
    expectEachOnce("retried");
    expect(Object.values(rewards("retried")).filter((x) => x === 1).length).toBe(TASKS / 2);
  }, 60_000);
});

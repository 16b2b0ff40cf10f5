// End to end on the compiled binary: a counting mock (policy sampled at temperature 1, and a judge) on loopback,
// `gym eval run --cache` twice, half the prompts changed, a judge that fails once, reverify, and `gym cache …`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, type ServedApp } from "../../runtime/serve.ts";
import { ensureBinary, gym, gymBinary } from "../../testing/binary.ts";

const POLICY_KEY = "sk-policy-cache-secret-9931";
const JUDGE_KEY = "sk-judge-cache-secret-1177";
const calls = { policy: 0, judge: 0 };
/** Judge prompts (by question number) to answer with a 401 once. */
const failJudgeOnce = new Set<number>();
/** Policy prompts (by question number) to answer with a 400 once. */
const failPolicyOnce = new Set<number>();
let mock: ServedApp;
let dir: string;
let env: Record<string, string>;

const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
const responseOf = (id: string, model: string, text: string) => ({
  id, created_at: 1700000000, model, object: "response", parallel_tool_calls: true, tool_choice: "auto", tools: [], status: "completed",
  output: [{ id: `msg_${id}`, type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }],
});

/** One endpoint for both: the policy samples a random word for every call; the judge grades "A" when the gold target is in the answer. */
async function endpoint(request: Request): Promise<Response> {
  if (request.method !== "POST") return json({ object: "list", data: [{ id: "policy", object: "model" }, { id: "judge", object: "model" }] });
  const body = (await request.json()) as { model: string; input?: { content: string }[]; messages?: { content: string }[] };
  const prompt = (body.messages ?? body.input ?? []).map((m) => m.content).join("\n");
  const i = Number(/question (\d+)/.exec(prompt)?.[1] ?? 0);
  if (body.model === "judge") {
    calls.judge++;
    if (request.headers.get("authorization") !== `Bearer ${JUDGE_KEY}`) return json({ error: { message: "bad key" } }, 401);
    if (failJudgeOnce.delete(i)) return json({ error: { message: "Incorrect API key provided" } }, 401);
    const verdict = /Gold target: (\S+)\nPredicted answer: [^\n]*\1/.test(prompt) ? "A" : "B";
    if (new URL(request.url).pathname.endsWith("/chat/completions")) {
      return json({ id: `chatcmpl-${calls.judge}`, object: "chat.completion", created: 0, model: "judge", choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: verdict } }] });
    }
    return json(responseOf(`j${calls.judge}`, "judge", verdict));
  }
  calls.policy++;
  if (failPolicyOnce.delete(i)) return json({ error: { message: "The server had an error" } }, 400);
  const sample = Math.random().toString(36).slice(2, 10);
  return json(responseOf(`p${calls.policy}`, "policy", `The code word is ${sample.charCodeAt(0) % 2 ? `answer-${i}` : "answer-x"} (${sample}).`));
}

function writeTasks(name: string, suffix: (i: number) => string) {
  let text = "";
  for (let i = 0; i < 4; i++) {
    const question = `What is the code word of question ${i}?${suffix(i)}`;
    text += `${JSON.stringify({ id: `q${i}`, question, expected_answer: `answer-${i}`, responses_create_params: { input: [{ role: "user", content: question }] } })}\n`;
  }
  writeFileSync(join(dir, name), text);
}

const lines = (path: string) => readFileSync(join(dir, path), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
/** Rows by (task, rollout), without the cache counters and timings (the only fields allowed to differ). */
const comparable = (path: string) =>
  lines(path)
    .map(({ _ng_response_cache, elapsed_seconds, ...row }) => row)
    .sort((a, b) => a._ng_task_index - b._ng_task_index || a._ng_rollout_index - b._ng_rollout_index);

function evalRun(tasks: string, output: string, extra: string[] = []) {
  return gym(["eval", "run", "--resources-server", "simpleqa", "--model-type", "openai_model", "--model", "policy", "--model-url", `${mock.url}/v1`,
    "--model-api-key", POLICY_KEY, "--config", "judge.yaml", "--input", tasks, "--num-repeats", "4", "--temperature", "1", "--concurrency", "4",
    "-o", output, ...extra], { cwd: dir, env });
}

/** Calls made upstream by `action`. */
async function counted<T>(action: () => Promise<T>): Promise<{ result: T; policy: number; judge: number }> {
  const before = { ...calls };
  const result = await action();
  return { result, policy: calls.policy - before.policy, judge: calls.judge - before.judge };
}

beforeAll(async () => {
  await ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "gym-cache-e2e-"));
  env = { NEMO_GYM_CACHE_DIR: join(dir, "cache") };
  mock = await serve(endpoint);
  writeFileSync(join(dir, "judge.yaml"), `genrm_model:\n  responses_api_models:\n    openai_model:\n      entrypoint: app.py\n      openai_base_url: ${mock.url}/v1\n      openai_api_key: ${JUDGE_KEY}\n      openai_model: judge\n`);
  writeTasks("tasks.jsonl", () => "");
  writeTasks("half-changed.jsonl", (i) => (i % 2 === 0 ? " Think first." : ""));
}, 120_000);

afterAll(async () => {
  await mock?.stop();
});

describe("gym eval run --cache (compiled binary, counting mock on 127.0.0.1)", () => {
  test("an identical second run makes 0 calls and writes the same rollouts; repeats stay distinct; judge calls are cached", async () => {
    const first = await counted(() => evalRun("tasks.jsonl", "first/rollouts.jsonl", ["--cache"]));
    expect(first.result.code).toBe(0);
    expect(first.policy).toBe(16);
    expect(first.judge).toBe(16);
    expect(first.result.stderr).toContain("Response cache: 0 model calls served from the cache, 32 sent upstream.");
    const sampled = lines("first/rollouts.jsonl");
    // Four samples per task at temperature 1: four different answers, not one answer four times.
    for (let task = 0; task < 4; task++) {
      const texts = sampled.filter((r) => r._ng_task_index === task).map((r) => r.response.output[0].content[0].text);
      expect(new Set(texts).size).toBe(4);
    }
    for (const row of sampled) expect(row._ng_response_cache).toEqual({ hits: 0, misses: 2 });

    const second = await counted(() => evalRun("tasks.jsonl", "second/rollouts.jsonl", ["--cache"]));
    expect(second.result.code).toBe(0);
    expect([second.policy, second.judge]).toEqual([0, 0]);
    expect(second.result.stderr).toContain("Response cache: 32 model calls served from the cache, 0 sent upstream.");
    expect(comparable("second/rollouts.jsonl")).toEqual(comparable("first/rollouts.jsonl"));
    for (const row of lines("second/rollouts.jsonl")) expect(row._ng_response_cache).toEqual({ hits: 2, misses: 0 });
    expect(readFileSync(join(dir, "second/rollouts_aggregate_metrics.json"), "utf8")).toBe(readFileSync(join(dir, "first/rollouts_aggregate_metrics.json"), "utf8"));
    const status = await gym(["eval", "status", "--json", "second"], { cwd: dir, env });
    expect(JSON.parse(status.stdout)["second/rollouts_batch_status.json"].response_cache).toEqual({ hits: 32, misses: 0 });

    // Without --cache nothing is looked up: every call goes upstream again.
    const uncached = await counted(() => evalRun("tasks.jsonl", "uncached/rollouts.jsonl"));
    expect([uncached.policy, uncached.judge]).toEqual([16, 16]);
    expect(lines("uncached/rollouts.jsonl")[0]._ng_response_cache).toBeUndefined();
  }, 240_000);

  test("a prompt changed on half the tasks calls only for those tasks (+response_cache=true)", async () => {
    const r = await counted(() => evalRun("half-changed.jsonl", "half/rollouts.jsonl", ["+response_cache=true"]));
    expect(r.result.code).toBe(0);
    expect([r.policy, r.judge]).toEqual([8, 8]);
    for (const row of lines("half/rollouts.jsonl")) expect(row._ng_response_cache).toEqual(row._ng_task_index % 2 === 0 ? { hits: 0, misses: 2 } : { hits: 2, misses: 0 });
  }, 120_000);

  test("a failed judge call is not stored: reverify --judge-failed-only sends it upstream, then reverify is served from the cache", async () => {
    writeTasks("fresh.jsonl", () => " Answer briefly.");
    for (const i of [1, 3]) failJudgeOnce.add(i);
    // A fresh prompt set: task 1 and 3's first judge calls fail (judge_failed rows in the sidecar).
    const failing = await counted(() => evalRun("fresh.jsonl", "failing/rollouts.jsonl", ["--cache", "+route_failures_to_sidecar=true"]));
    expect(failing.result.code).toBe(0);
    expect([failing.policy, failing.judge]).toEqual([16, 16]);
    expect(lines("failing/rollouts_failures.jsonl").map((r) => r._ng_failure_class)).toEqual(["judge_failed", "judge_failed"]);
    const recover = await counted(() =>
      gym(["eval", "reverify", "--judge-failed-only", "--cache", "--resources-server", "simpleqa", "--config", "judge.yaml",
        "--inputs", "failing/rollouts_materialized_inputs.jsonl", "--rollouts", "failing/rollouts.jsonl", "-o", "recovered.jsonl"], { cwd: dir, env }),
    );
    expect(recover.result.code).toBe(0);
    expect([recover.policy, recover.judge]).toEqual([0, 2]);
    expect(lines("recovered.jsonl")).toHaveLength(16);

    // A full reverify of the first run (simpleqa reports no reverify_mode, hence --force): every judge answer is cached.
    const again = await counted(() =>
      gym(["eval", "reverify", "--cache", "--force", "--resources-server", "simpleqa", "--config", "judge.yaml",
        "--inputs", "first/rollouts_materialized_inputs.jsonl", "--rollouts", "first/rollouts.jsonl", "-o", "reverified.jsonl"], { cwd: dir, env }),
    );
    expect(again.result.code).toBe(0);
    expect([again.policy, again.judge]).toEqual([0, 0]);
    const reverified = lines("unsafe_reverified.jsonl");
    expect(reverified).toHaveLength(16);
    for (const row of reverified) expect(row._ng_response_cache).toEqual({ hits: 1, misses: 0 });
  }, 240_000);

  test("a failed policy call is sent again by --resume, not served from the cache", async () => {
    writeTasks("resume.jsonl", () => " Resume case.");
    failPolicyOnce.add(2);
    const failed = await counted(() => evalRun("resume.jsonl", "resume/rollouts.jsonl", ["--cache", "+route_failures_to_sidecar=true"]));
    expect(failed.result.code).toBe(0);
    expect([failed.policy, failed.judge]).toEqual([16, 15]);
    expect(lines("resume/rollouts_failures.jsonl").map((r) => r._ng_task_index)).toEqual([2]);
    const resumed = await counted(() => evalRun("resume.jsonl", "resume/rollouts.jsonl", ["--cache", "--resume", "+route_failures_to_sidecar=true"]));
    expect(resumed.result.code).toBe(0);
    expect([resumed.policy, resumed.judge]).toEqual([1, 1]);
    expect(lines("resume/rollouts.jsonl")).toHaveLength(16);
    const retried = lines("resume/rollouts.jsonl").filter((r) => r._ng_task_index === 2 && r._ng_attempt_index === 1);
    expect(retried.map((r) => r._ng_response_cache)).toEqual([{ hits: 0, misses: 2 }]);
  }, 120_000);

  test("no API key is in the store; gym cache list, prune and clear", async () => {
    const files = readdirSync(join(dir, "cache")).filter((name) => name.startsWith("responses.sqlite"));
    expect(files).toContain("responses.sqlite");
    for (const name of files) {
      const bytes = readFileSync(join(dir, "cache", name), "latin1");
      expect(bytes.includes(POLICY_KEY) || bytes.includes(JUDGE_KEY)).toBe(false);
    }
    const listed = await gym(["cache", "list", "--json"], { cwd: dir, env });
    expect(listed.code).toBe(0);
    const report = JSON.parse(listed.stdout);
    const byModel = Object.fromEntries(report.models.map((m: { model: string; entries: number }) => [m.model, m.entries]));
    // 16 + 8 + 16 + 16 sampled answers; as many judged ones (failures were not stored, their retries were).
    expect(byModel).toEqual({ policy: 56, judge: 56 });
    expect(report.entries).toBe(112);

    const pruned = await gym(["cache", "prune", "--json"], { cwd: dir, env });
    expect(JSON.parse(pruned.stdout).removed).toBe(0);
    const refused = await gym(["cache", "clear"], { cwd: dir, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--yes");
    const judgeOnly = await gym(["cache", "clear", "--model", "judge", "--yes", "--json"], { cwd: dir, env });
    expect(JSON.parse(judgeOnly.stdout).removed).toBe(56);
    const cleared = await gym(["cache", "clear", "--yes", "--json"], { cwd: dir, env });
    expect(JSON.parse(cleared.stdout).removed).toBe(56);
    expect(JSON.parse((await gym(["cache", "list", "--json"], { cwd: dir, env })).stdout).entries).toBe(0);
    expect(existsSync(join(dir, "cache", "responses.sqlite"))).toBe(true);
  }, 120_000);

  test("servers started by env start --cache: eval run --no-serve twice, the second run served from their cache", async () => {
    const headPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const port = (server.address() as { port: number }).port;
        server.close(() => resolve(port));
      });
    });
    const served = spawn(gymBinary, ["env", "start", "--cache", "--resources-server", "simpleqa", "--model-type", "openai_model", "--model", "policy",
      "--model-url", `${mock.url}/v1`, "--model-api-key", POLICY_KEY, "--config", "judge.yaml", "--json", `+head_server.port=${headPort}`],
      { cwd: dir, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    try {
      let stderr = "";
      served.stderr!.on("data", (d) => (stderr += d));
      await new Promise<void>((resolve, reject) => {
        served.stdout!.once("data", () => resolve());
        served.once("exit", (code) => reject(new Error(`env start exited ${code}: ${stderr}`)));
      });
      writeTasks("served.jsonl", () => " Served.");
      const collect = (output: string) => gym(["eval", "run", "--no-serve", "--cache", "--input", "served.jsonl", "--num-repeats", "4", "--temperature", "1",
        "--concurrency", "4", "-o", output, `+head_server.port=${headPort}`], { cwd: dir, env });
      const first = await counted(() => collect("served1/rollouts.jsonl"));
      expect(first.result.stderr).toContain("Coverage: 16 of 16");
      expect([first.policy, first.judge]).toEqual([16, 16]);
      expect(lines("served1/rollouts.jsonl").map((r) => r._ng_response_cache)).toEqual(Array(16).fill({ hits: 0, misses: 2 }));
      const second = await counted(() => collect("served2/rollouts.jsonl"));
      expect([second.policy, second.judge]).toEqual([0, 0]);
      expect(lines("served2/rollouts.jsonl").map((r) => r._ng_response_cache)).toEqual(Array(16).fill({ hits: 2, misses: 0 }));
      expect(comparable("served2/rollouts.jsonl")).toEqual(comparable("served1/rollouts.jsonl"));
    } finally {
      served.kill("SIGTERM");
      await new Promise((resolve) => served.once("exit", resolve));
    }
  }, 120_000);

  test("a bad --cache-expiry is refused before anything runs", async () => {
    const r = await evalRun("tasks.jsonl", "bad/rollouts.jsonl", ["--cache", "--cache-expiry", "soon"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--cache-expiry expects a duration such as 7d");
    expect(existsSync(join(dir, "bad"))).toBe(false);
  }, 60_000);
});

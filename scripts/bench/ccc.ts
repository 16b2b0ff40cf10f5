/**
 * competitive_coding_challenges: one rollout (a C++ answer, `GYM_BENCH_TESTS` tests, default 10) verified by the
 * server in the sandbox (compiled once, each test in its own sandboxed run) beside NeMo Gym's procedure run bare
 * (`compile.sh` then `run.sh` per test in a fresh copy of the folder, no sandbox: what its evaluator asks of the
 * Skills sandbox container, minus the container). Interleaved rounds; best of each printed with the ratio.
 *
 *   bun scripts/bench/ccc.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { COMPILE_SH, RUN_SH, toyMetadataLine } from "../../src/components/resources_servers/competitive_coding_challenges/_fixtures/toy-problem.ts";
import createCcc from "../../src/components/resources_servers/competitive_coding_challenges/index.ts";
import { spawnProcess } from "../../src/runtime/spawn.ts";

const testCount = Number(process.env.GYM_BENCH_TESTS ?? 10);
const rounds = Number(process.env.GYM_BENCH_ROUNDS ?? 3);
const dir = mkdtempSync(join(tmpdir(), "gym-bench-ccc-"));
const CODE = "#include <bits/stdc++.h>\nusing namespace std;\nint main(){ long long a,b; cin>>a>>b; cout<<a+b<<endl; }\n";
const tests = Object.fromEntries(Array.from({ length: testCount }, (_, i) => [`secret-${i}`, { input: `${i} ${i * 7}\n`, output: `${i * 8}\n` }]));
const metadata = join(dir, "metadata.jsonl");
writeFileSync(metadata, toyMetadataLine("bench", "addition", { all: { score: 100, tests } }) + "\n");
const app = createCcc({ test_file: metadata, test_batch_size: 2, num_parallel_requests: 2, time_scale: 1.0, shared_dir: "/tmp", reward_mode: "binary" });
const body = JSON.stringify({
  responses_create_params: { input: [{ role: "user", content: "add" }] },
  response: { id: "r", created_at: 1, model: "m", object: "response", parallel_tool_calls: true, tool_choice: "auto", tools: [], output: [{ id: "m", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "```cpp\n" + CODE + "```", annotations: [] }] }] },
  competition_id: "bench", problem_id: "addition", subtask: "all",
});

async function sandboxed(): Promise<void> {
  const reply = await app.request("http://localhost/verify", { method: "POST", body, headers: { "content-type": "application/json" } });
  const row = (await reply.json()) as { reward: number };
  if (row.reward !== 1) throw new Error(`sandboxed verification scored ${row.reward}`);
}

const graderConfig = JSON.stringify({ task_type: "Batch", code: "addition", time_limit: 1, memory_limit: 268435456 });
async function bash(cwd: string, script: string): Promise<string> {
  const child = spawnProcess(["/bin/bash", "-c", script], { cwd });
  const [out] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return out;
}
async function bareOne(i: number): Promise<void> {
  const work = mkdtempSync(join(dir, "run-"));
  writeFileSync(join(work, "compile.sh"), COMPILE_SH, { mode: 0o755 });
  writeFileSync(join(work, "run.sh"), RUN_SH, { mode: 0o755 });
  await bash(work, "mkdir -p graders tmp");
  writeFileSync(join(work, "graders/grader_config.json"), graderConfig);
  writeFileSync(join(work, "graders/addition.cpp"), CODE);
  writeFileSync(join(work, "input.txt"), tests[`secret-${i}`]!.input);
  writeFileSync(join(work, "correct_output.txt"), tests[`secret-${i}`]!.output);
  await bash(work, "./compile.sh");
  const out = await bash(work, `export TMPDIR=${work}/tmp && TIME_LIMIT_SCALE=1 ./run.sh`);
  rmSync(work, { recursive: true, force: true });
  if (out.trim() !== "1") throw new Error(`bare run scored ${out.trim()}`);
}
async function bare(): Promise<void> {
  let next = 0;
  await Promise.all([0, 1].map(async () => {
    while (next < testCount) await bareOne(next++);
  }));
}

const time = async (f: () => Promise<void>) => {
  const start = performance.now();
  await f();
  return (performance.now() - start) / 1000;
};
await sandboxed();
const times = { sandbox: [] as number[], bare: [] as number[] };
for (let i = 0; i < rounds; i++) {
  times.sandbox.push(await time(sandboxed));
  times.bare.push(await time(bare));
}
const best = (xs: number[]) => Math.min(...xs);
console.log(`one rollout, ${testCount} tests, concurrency 2, best of ${rounds} (load ${loadavg()[0]!.toFixed(1)}):`);
console.log(`  gym sandboxed (compile once, each test in bubblewrap): ${best(times.sandbox).toFixed(2)} s  [${times.sandbox.map((t) => t.toFixed(2)).join(", ")}]`);
console.log(`  NeMo Gym's procedure bare (compile + run per test):    ${best(times.bare).toFixed(2)} s  [${times.bare.map((t) => t.toFixed(2)).join(", ")}]`);
console.log(`  ratio gym / bare: ${(best(times.sandbox) / best(times.bare)).toFixed(2)}`);
rmSync(dir, { recursive: true, force: true });

/**
 * Code execution: (1) test programs per second through the sandbox (bubblewrap + cgroup slot + prlimit, dropping
 * to nobody) beside the same programs run bare (`python3 harness.py`, what NeMo Gym's unsandboxed code_gen
 * amounts to), interleaved rounds, same concurrency; (2) a LiveCodeBench-sized reverify (`gym eval reverify
 * --resources-server code_gen` at its full num_processes) with the machine's lowest free memory and the load
 * during it. Printed, never asserted.
 *
 *   bun scripts/bench/code.ts                     # 64 programs × 3 rounds, then 279 rollouts × 20 tests
 *   GYM_BENCH_PROGRAMS=32 GYM_BENCH_ROLLOUTS=100 bun scripts/bench/code.ts
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { HARNESS_PY } from "../../src/components/resources_servers/code_gen/harness.ts";
import { spawnProcess } from "../../src/runtime/spawn.ts";
import { detectPython, openSandbox } from "../../src/sandbox/index.ts";
import { binary, requireBinary } from "./_util.ts";

const programs = Number(process.env.GYM_BENCH_PROGRAMS ?? 64);
const rounds = Number(process.env.GYM_BENCH_ROUNDS ?? 3);
const rollouts = Number(process.env.GYM_BENCH_ROLLOUTS ?? 279);
const concurrency = 2;
requireBinary();
const python = (await detectPython())!;
const sandbox = await openSandbox();
const dir = mkdtempSync(join(tmpdir(), "gym-bench-code-"));
writeFileSync(join(dir, "harness.py"), HARNESS_PY);

// A typical accepted LiveCodeBench stdin program and its tests.
const CODE = "n = int(input())\nxs = list(map(int, input().split()))\nprint(sum(xs) * n)";
const tests = (k: number) => ({ inputs: Array.from({ length: k }, (_, i) => `3\n${i} ${i + 1} ${i + 2}\n`), outputs: Array.from({ length: k }, (_, i) => `${3 * (3 * i + 3)}\n`), fn_name: null });
const request = () => new TextEncoder().encode(JSON.stringify({ tests: tests(5), code: CODE, timeout: 10, nonce: `@${randomUUID()}@` }));

async function bare(): Promise<void> {
  const child = spawnProcess([python.executable, join(dir, "harness.py")], { stdin: request(), cwd: dir });
  await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
}
async function sandboxed(): Promise<void> {
  const r = await sandbox.run({ argv: [python.executable, "/sandbox/harness.py"], stdin: request(), files: { "harness.py": HARNESS_PY }, readOnlyRoots: python.roots });
  if (r.exitCode !== 0) throw new Error(`sandboxed run failed: ${r.reason ?? r.stderr}`);
}
async function batch(one: () => Promise<void>): Promise<number> {
  const start = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next++ < programs) await one();
  }));
  return (performance.now() - start) / 1000;
}

const times = { bare: [] as number[], sandbox: [] as number[] };
await batch(bare);
await batch(sandboxed); // warm caches and the cgroup slots
for (let i = 0; i < rounds; i++) {
  times.bare.push(await batch(bare));
  times.sandbox.push(await batch(sandboxed));
}
const best = (xs: number[]) => Math.min(...xs);
const perSec = (s: number) => (programs / s).toFixed(1);
console.log(`programs (${programs} per round, concurrency ${concurrency}, best of ${rounds}; each grades 5 stdin tests):`);
console.log(`  bare python3:       ${perSec(best(times.bare))} programs/s (${((best(times.bare) / programs) * 1000).toFixed(1)} ms each)`);
console.log(`  sandboxed (bwrap):  ${perSec(best(times.sandbox))} programs/s (${((best(times.sandbox) / programs) * 1000).toFixed(1)} ms each)`);
console.log(`  cost ratio sandbox / bare: ${(best(times.sandbox) / best(times.bare)).toFixed(2)}× (goal ≤ 1.3×)`);

// The sandbox's fixed cost alone: /bin/true bare beside /bin/true sandboxed, one at a time.
const fixed = { bare: [] as number[], sandbox: [] as number[] };
for (let i = 0; i < 20; i++) {
  let t = performance.now();
  const child = spawnProcess(["/bin/true"]);
  await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  fixed.bare.push(performance.now() - t);
  t = performance.now();
  await sandbox.run({ argv: ["/bin/true"] });
  fixed.sandbox.push(performance.now() - t);
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log(`  fixed cost per run (/bin/true, median of 20): bare ${med(fixed.bare).toFixed(1)} ms, sandboxed ${med(fixed.sandbox).toFixed(1)} ms (+${(med(fixed.sandbox) - med(fixed.bare)).toFixed(1)} ms: sh, prlimit, bwrap, setpriv, cgroup slot)`);

// LiveCodeBench-sized reverify: v5 has 279 problems; each rollout here carries 20 tests.
const inputs: string[] = [];
const rows: string[] = [];
for (let t = 0; t < rollouts; t++) {
  const params = { input: [{ role: "user", content: `problem ${t}` }] };
  const stamps = { _ng_task_index: t, _ng_rollout_index: 0, agent_ref: { name: "code_gen_simple_agent" } };
  inputs.push(JSON.stringify({ responses_create_params: params, verifier_metadata: { unit_tests: tests(20), difficulty: "easy" }, ...stamps }));
  const text = `Here:\n\`\`\`python\n${CODE}\n\`\`\``;
  const response = { id: `r${t}`, created_at: 1, model: "m", object: "response", parallel_tool_calls: true, tool_choice: "auto", tools: [], output: [{ id: `m${t}`, type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }] };
  rows.push(JSON.stringify({ responses_create_params: params, response, reward: 1, ...stamps }));
}
writeFileSync(join(dir, "in.jsonl"), `${inputs.join("\n")}\n`);
writeFileSync(join(dir, "ro.jsonl"), `${rows.join("\n")}\n`);
const available = () => Number(/MemAvailable:\s+(\d+)/.exec(readFileSync("/proc/meminfo", "utf8"))![1]) / 1024;
let lowest = available();
let highestLoad = loadavg()[0]!;
const sampler = setInterval(() => {
  lowest = Math.min(lowest, available());
  highestLoad = Math.max(highestLoad, loadavg()[0]!);
}, 200);
const start = performance.now();
const child = spawnProcess([binary, "eval", "reverify", "--resources-server", "code_gen", "--inputs", join(dir, "in.jsonl"), "--rollouts", join(dir, "ro.jsonl"), "-o", join(dir, "out.jsonl")], { env: process.env as Record<string, string> });
const [, stderr, status] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
clearInterval(sampler);
const seconds = (performance.now() - start) / 1000;
const scored = readFileSync(join(dir, "out.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
console.log(`reverify code_gen, ${rollouts} rollouts × 20 tests at num_processes 8: ${seconds.toFixed(1)} s (${(rollouts / seconds).toFixed(1)} rollouts/s), exit ${status.exitCode}, ${scored.filter((r) => r.reward === 1).length}/${rollouts} scored 1`);
console.log(`  machine during it: lowest MemAvailable ${lowest.toFixed(0)} MB, highest 1-min load ${highestLoad.toFixed(1)} (2 cores)`);
if (status.exitCode !== 0) console.log(stderr.slice(-2000));

/**
 * scicode: one sub-step (SciCode problem 1's ground truth against its three tests in fixtures/scicode/test_data.h5)
 * verified by the server in the sandbox with Debian's python3 + numpy/scipy/sympy/h5py, beside NeMo Gym's procedure
 * run bare (`python -c <the same program>` as a plain subprocess, no sandbox). Interleaved rounds; best of each and
 * the ratio printed. Needs bubblewrap and Debian's packages (scripts/ci/up-scicode.sh).
 *
 *   bun scripts/bench/scicode.ts
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import createScicode from "../../src/components/resources_servers/scicode/index.ts";
import { buildTestProgram, sanitizeTest } from "../../src/components/resources_servers/scicode/program.ts";
import { spawnProcess } from "../../src/runtime/spawn.ts";

const rounds = Number(process.env.GYM_BENCH_ROUNDS ?? 5);
const root = join(import.meta.dir, "..", "..");
const h5 = join(root, "fixtures/scicode/test_data.h5");
const problem = readFileSync(join(root, "src/components/resources_servers/scicode/data/example.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)).find((r) => r.problem_id === "1");
const solution = `${problem.required_dependencies}\n\n${problem.sub_steps[0].ground_truth_code}`;
const app = createScicode({ test_data_fpath: h5, timeout_secs: 30.0, num_processes: 1 }, { name: "scicode" });
const body = JSON.stringify({ ...problem, solutions: { "1.1": solution }, response: { id: "r", created_at: 1, model: "m", object: "response", parallel_tool_calls: true, tool_choice: "auto", tools: [], output: [] } });

async function sandboxed(): Promise<void> {
  const reply = await app.request("http://localhost/verify", { method: "POST", body, headers: { "content-type": "application/json" } });
  const row = (await reply.json()) as { reward: number };
  if (row.reward !== 1) throw new Error(`sandboxed verification scored ${JSON.stringify(row)}`);
}
const program = buildTestProgram(solution, h5, problem.sub_steps[0].step_number, problem.sub_steps[0].test_cases.map(sanitizeTest));
async function bare(): Promise<void> {
  const child = spawnProcess(["/usr/bin/python3", "-c", program]);
  await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
  if ((await child.exited).exitCode !== 0) throw new Error("bare run failed");
}

async function time(fn: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}
await sandboxed(); // warm: the sandbox probe and the interpreter check run once
const ours: number[] = [];
const peer: number[] = [];
for (let i = 0; i < rounds; i++) {
  ours.push(await time(sandboxed));
  peer.push(await time(bare));
}
const best = (xs: number[]) => Math.min(...xs);
console.log(`scicode sub-step (3 tests, numpy+h5py import), best of ${rounds}, load ${loadavg()[0]!.toFixed(1)}:`);
console.log(`  gym, sandboxed:            ${best(ours).toFixed(0)} ms`);
console.log(`  NeMo Gym's procedure bare: ${best(peer).toFixed(0)} ms`);
console.log(`  ratio gym / bare:          ${(best(ours) / best(peer)).toFixed(2)}`);

/**
 * math_with_judge's verifier: verifications per second and p50/p99/max per pair on the golden pairs
 * (fixtures/math/golden.jsonl), in one process, beside math-verify 0.8.0 on the same pairs in the same run.
 * Printed, never asserted.
 *
 *   MATH_VERIFY_PYTHONPATH=<Math-Verify>/src:<latex2sympy2_extended>/src bun scripts/bench/math.ts [pairs]
 *
 * Without MATH_VERIFY_PYTHONPATH the Python side is skipped (with a notice). Both sides run in-process
 * (NeMo Gym adds a forked child per pair on top of the library's time; not counted here).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { mathVerify } from "../../src/components/resources_servers/_math_verify/index.ts";

const file = join(import.meta.dir, "..", "..", "fixtures", "math", "golden.jsonl");
const rows = readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { expected_answer: string; response_text: string });
const limit = Number(process.argv[2] ?? rows.length);
const pairs = rows.slice(0, limit);

mathVerify("1", "1");
const times: number[] = [];
const start = performance.now();
for (const r of pairs) {
  const t = performance.now();
  mathVerify(r.expected_answer, r.response_text);
  times.push(performance.now() - t);
}
const seconds = (performance.now() - start) / 1000;
times.sort((a, b) => a - b);
const ours = { pairs: pairs.length, seconds, p50: times[Math.floor(times.length / 2)]!, p99: times[Math.floor(times.length * 0.99)]!, max: times[times.length - 1]! };
const line = (name: string, s: typeof ours) =>
  `${name.padEnd(22)} ${(s.pairs / s.seconds).toFixed(0).padStart(7)} verifications/s   p50 ${s.p50.toFixed(3)} ms   p99 ${s.p99.toFixed(3)} ms   max ${s.max.toFixed(1)} ms`;
console.log(`${pairs.length} golden pairs`);
console.log(line("gym (TypeScript port)", ours));

const pythonPath = process.env.MATH_VERIFY_PYTHONPATH;
if (!pythonPath) {
  console.log("skip: math-verify 0.8.0 not timed because MATH_VERIFY_PYTHONPATH is not set (its src/ and latex2sympy2_extended's src/)");
} else {
  const peer = spawnSync("python3", [join(import.meta.dir, "_math_verify_peer.py"), file, String(pairs.length)], { encoding: "utf8", env: { ...process.env, PYTHONPATH: pythonPath } });
  if (peer.status !== 0) {
    console.log(`skip: the Python peer failed: ${peer.stderr.trim().split("\n").at(-1)}`);
  } else {
    const py = JSON.parse(peer.stdout.trim().split("\n").at(-1)!) as typeof ours;
    console.log(line("math-verify 0.8.0 (py)", py));
    console.log(`ratio: ${(py.seconds / ours.seconds).toFixed(1)}× the throughput; p99 ${(py.p99 / ours.p99).toFixed(1)}× lower`);
  }
}

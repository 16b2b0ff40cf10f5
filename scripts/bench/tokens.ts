/**
 * The long-context prepares' token counter: o200k_base tokens per second over a mixed text (English prose, code, CJK,
 * emoji, long digit runs), gym's (`src/text/bpe.ts` on js-tiktoken's tables) beside js-tiktoken's own
 * encoder and Python tiktoken (Rust) on the same text in the same run, and whether the counts agree. Printed, never
 * asserted.
 *
 *   TIKTOKEN_PYTHON=<python with tiktoken> TIKTOKEN_CACHE_DIR=<dir with o200k_base> bun scripts/bench/tokens.ts [MB]
 *
 * Without TIKTOKEN_PYTHON the Python side is skipped (with a notice); scripts/long-context-golden.py shows how to fill a
 * TIKTOKEN_CACHE_DIR offline from js-tiktoken's tables (tiktoken checks their sha256).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { tokenCounter } from "../../src/components/benchmarks/_tokens.ts";

const mb = Number(process.argv[2] ?? 8);
const pieces = [
  "It was a bright cold day in April, and the clocks were striking thirteen. Winston Smith, his chin nuzzled into his breast, slipped quickly through the glass doors. ",
  "def walk(graph, start):\n    seen = {start}\n    for node in graph[start]:\n        if node not in seen:\n            seen.add(node)\n    return sorted(seen)\n\n",
  "长上下文基准测试包括单文档问答、多文档问答和代码仓库理解。日本語のテキストも含まれます。",
  "a1b2 -> c3d4\nc3d4 -> e5f6 😀👍🏽 1234567890 3.14159 \n",
];
let text = "";
for (let i = 0; text.length < mb * 1_000_000; i++) text += pieces[i % pieces.length]!;
const bytes = Buffer.byteLength(text);

let start = performance.now();
const count = await tokenCounter("o200k_base");
const loadSeconds = (performance.now() - start) / 1000;
start = performance.now();
const ours = count(text);
const oursSeconds = (performance.now() - start) / 1000;
const line = (name: string, tokens: number, seconds: number) => `${name.padEnd(28)} ${tokens} tokens   ${(tokens / seconds / 1e6).toFixed(2)} M tokens/s   ${(bytes / seconds / 1e6).toFixed(1)} MB/s`;
console.log(`${(bytes / 1e6).toFixed(1)} MB of mixed text; js-tiktoken tables loaded in ${loadSeconds.toFixed(2)} s`);
console.log(line("gym (bpe.ts)", ours, oursSeconds));
const peer = new Tiktoken(o200k);
start = performance.now();
const theirs = peer.encode(text, [], []).length;
const peerSeconds = (performance.now() - start) / 1000;
console.log(line("js-tiktoken 1.0.21 encode", theirs, peerSeconds));
console.log(`counts ${theirs === ours ? "equal" : `DIFFER (${ours} vs ${theirs})`}; gym takes ${(oursSeconds / peerSeconds).toFixed(2)}× js-tiktoken's time`);

const python = process.env.TIKTOKEN_PYTHON;
if (!python) {
  console.log("skip: Python tiktoken not timed because TIKTOKEN_PYTHON is not set");
} else {
  const dir = mkdtempSync(join(tmpdir(), "gym-bench-tokens-"));
  writeFileSync(join(dir, "text.txt"), text);
  const script = "import sys, time, tiktoken\ne = tiktoken.get_encoding('o200k_base')\nt = open(sys.argv[1], encoding='utf-8').read()\ne.encode('warm up')\ns = time.perf_counter(); n = len(e.encode(t, disallowed_special=())); print(n, time.perf_counter() - s)";
  const r = spawnSync(python, ["-c", script, join(dir, "text.txt")], { encoding: "utf8" });
  rmSync(dir, { recursive: true, force: true });
  if (r.status !== 0) console.log(`skip: ${python} failed: ${r.stderr.trim().split("\n").at(-1)}`);
  else {
    const [tokens, seconds] = r.stdout.trim().split(" ").map(Number) as [number, number];
    console.log(line("Python tiktoken (Rust)", tokens, seconds));
    console.log(`counts ${tokens === ours ? "equal" : `DIFFER (${ours} vs ${tokens})`}; gym takes ${(oursSeconds / seconds).toFixed(1)}× tiktoken's time`);
  }
}

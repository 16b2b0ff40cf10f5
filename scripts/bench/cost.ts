/**
 * The cost of pricing a run: `gym eval status RUN --json` (which reads every row's usage and prices it) against what a
 * user would otherwise run — jq summing the usage — and the floor, a bare JSON.parse loop. Interleaved runs, medians.
 * Usage: bun scripts/bench/cost.ts [MB] [RUNS]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeRolloutsFile } from "./_rollouts-file.ts";
import { binary, median, requireBinary, timeInterleaved } from "./_util.ts";

requireBinary();
const mb = Number(process.argv[2] ?? 100);
const runs = Number(process.argv[3] ?? 3);
const dir = join(tmpdir(), "gym-bench-cost");
mkdirSync(dir, { recursive: true });
const rollouts = join(dir, "rollouts.jsonl");
writeRolloutsFile(rollouts, mb);
// eval status reads a run: a status file beside the rollouts is all it needs.
writeFileSync(join(dir, "rollouts_batch_status.json"), JSON.stringify({ tracking: "enabled" }));
writeFileSync(join(dir, "prices.yaml"), "policy: {input: 1, output: 4}\n");
const jq = "reduce inputs as $r ([0,0]; [.[0] + $r.response.usage.input_tokens, .[1] + $r.response.usage.output_tokens])";
const times = timeInterleaved(
  {
    "gym eval status --json (cost)": [binary, "eval", "status", dir, "--json", "--prices", join(dir, "prices.yaml")],
    "jq (sum usage)": ["jq", "-n", jq, rollouts],
    "bare JSON.parse loop (bun)": [process.execPath, join(import.meta.dir, "_bare-parse.ts"), rollouts],
  },
  runs,
);
const gym = median(times["gym eval status --json (cost)"]!);
console.log(`${mb} MB of rollouts, median of ${runs} interleaved runs:`);
for (const [name, t] of Object.entries(times)) console.log(`  ${name.padEnd(32)} ${(median(t) / 1000).toFixed(2)} s   gym/this ${(gym / median(t)).toFixed(2)}`);

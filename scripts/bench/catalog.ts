/** `gym list benchmarks` on the compiled binary: median wall time over runs (target < 50 ms). Printed, never asserted. */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const binary = join(import.meta.dir, "..", "..", "dist", "gym");
if (!existsSync(binary)) {
  console.error(`No ${binary}: build it first with \`bun scripts/build.ts\`.`);
  process.exit(1);
}
const runs = Number(process.argv[2] ?? 21);
const commands: string[][] = [["list", "benchmarks"], ["list", "benchmarks", "--json"], ["list", "resources-servers"], ["--help"]];
for (const args of commands) {
  const times: number[] = [];
  spawnSync(binary, args); // warm the page cache
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = spawnSync(binary, args, { encoding: "utf8" });
    times.push(performance.now() - start);
    if (result.status !== 0 && args[0] !== "--help") {
      console.error(`gym ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
      process.exit(1);
    }
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  console.log(`gym ${args.join(" ").padEnd(26)} median ${median.toFixed(1)} ms  (min ${times[0]!.toFixed(1)}, max ${times[times.length - 1]!.toFixed(1)}, ${runs} runs)${args[1] === "benchmarks" && !args[2] ? `  target < 50 ms: ${median < 50 ? "met" : "NOT met"}` : ""}`);
}

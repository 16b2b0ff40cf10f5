/** Cold start: `gym --help` and `gym --version` beside `node -e 0` and `python3 -c 0`, median of interleaved runs. */
import { binary, median, requireBinary, timeInterleaved } from "./_util.ts";

requireBinary();
const runs = Number(process.argv[2] ?? 31);
const times = timeInterleaved(
  {
    "gym --help": [binary, "--help"],
    "gym --version": [binary, "--version"],
    "gym --version --json": [binary, "--version", "--json"],
    "node -e 0": ["node", "-e", "0"],
    "python3 -c 0": ["python3", "-c", "0"],
  },
  runs,
);
const help = median(times["gym --help"]!);
for (const [name, values] of Object.entries(times)) {
  const m = median(values);
  console.log(`${name.padEnd(22)} median ${m.toFixed(1).padStart(6)} ms   (${(m / help).toFixed(2)}× gym --help)`);
}
console.log(`gym --help target < 30 ms: ${help < 30 ? "met" : "NOT met"} (${runs} runs each, interleaved)`);

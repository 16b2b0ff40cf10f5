/**
 * A 1 MB response scored by every instruction checker of instruction_following and ifbench (strict + the 7 loose
 * variants), timed per checker; the slowest and the total are printed. `bun scripts/bench/instructions.ts`.
 */
import { scoreInstructions } from "../../src/components/resources_servers/_instructions/score.ts";
import { IFBENCH_REGISTRY } from "../../src/components/resources_servers/ifbench/index.ts";
import { INSTRUCTION_FOLLOWING_REGISTRY } from "../../src/components/resources_servers/instruction_following/index.ts";
import type { Registry } from "../../src/components/resources_servers/_instructions/types.ts";

const sentence = "The quick brown fox, Mr. Smith said, jumps over 3 lazy dogs near the U.S. border! Is it *really* true? ";
let text = "";
for (let i = 0; text.length < 1_000_000; i++) text += i % 12 === 11 ? `${sentence}\n\n` : sentence;

/** Kwargs that satisfy each checker's declared parameters. */
function sampleKwargs(params: Record<string, { type: string; oneOf?: readonly string[] }>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(params)) {
    if (p.oneOf) out[name] = p.oneOf[0];
    else if (p.type === "int" || p.type === "number") out[name] = name === "nth_paragraph" ? 1 : 3;
    else if (p.type === "strs") out[name] = ["fox", "dog"];
    else out[name] = name === "letter" ? "a" : name === "language" ? "en" : "fox";
  }
  return out;
}

function run(name: string, registry: Registry) {
  const times: [string, number][] = [];
  for (const [id, def] of Object.entries(registry)) {
    const start = performance.now();
    scoreInstructions(registry, [id], [sampleKwargs(def.params as never)], "fox", text, { base: [] });
    times.push([id, performance.now() - start]);
  }
  times.sort((a, b) => b[1] - a[1]);
  const total = times.reduce((t, [, ms]) => t + ms, 0);
  console.log(`${name}: ${times.length} checkers on ${(text.length / 1e6).toFixed(2)} MB × 8 variants: total ${total.toFixed(0)} ms; slowest ${times.slice(0, 4).map(([id, ms]) => `${id} ${ms.toFixed(0)} ms`).join(", ")}`);
}

/** One row of a benchmark's shape, scored twice (the second call is what a running server sees). */
function row(name: string, registry: Registry, ids: string[], kwargs: Record<string, unknown>[]) {
  for (const label of ["first call", "warm"]) {
    const start = performance.now();
    scoreInstructions(registry, ids, kwargs, "fox", text, { base: [] });
    console.log(`${name} (${label}): ${ids.join(", ")}: ${(performance.now() - start).toFixed(0)} ms`);
  }
}

row("ifeval row", INSTRUCTION_FOLLOWING_REGISTRY, ["length_constraints:number_words", "punctuation:no_comma", "detectable_format:title", "language:response_language"], [
  { num_words: 300, relation: "less than" }, {}, {}, { language: "en" },
]);
row("ifbench row", IFBENCH_REGISTRY, ["count:numbers", "words:start_verb"], [{ N: 2 }, {}]);
if (!process.argv.includes("--rows")) {
  run("instruction_following", INSTRUCTION_FOLLOWING_REGISTRY);
  run("ifbench", IFBENCH_REGISTRY);
}

/** Agreement of the port with the golden verdicts: `bun scripts/math-agreement.ts [fixtures/math/golden.jsonl] [--show N]`. */
import { readFileSync } from "node:fs";
import { mathVerify } from "../src/components/resources_servers/_math_verify/index.ts";

const file = process.argv.find((a) => a.endsWith(".jsonl")) ?? "fixtures/math/golden.jsonl";
const show = Number(process.argv[process.argv.indexOf("--show") + 1]) || 0;
const rows = readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
let agree = 0;
let extracted = 0;
const bad: string[] = [];
for (const r of rows) {
  const v = mathVerify(r.expected_answer, r.response_text);
  if (v.reward === r.reward) agree++;
  else bad.push(`${r.id} gold=${JSON.stringify(r.expected_answer)} want=${r.reward} got=${v.reward} ext=${JSON.stringify(r.extracted_answer)} ours=${JSON.stringify(v.extracted_answer)} text=${JSON.stringify(r.response_text.slice(-70))}`);
  if (v.extracted_answer === r.extracted_answer) extracted++;
}
console.log(`reward agreement ${agree}/${rows.length} = ${((100 * agree) / rows.length).toFixed(2)}%; extracted_answer ${extracted}/${rows.length}`);
for (const b of bad.slice(0, show)) console.log(b);

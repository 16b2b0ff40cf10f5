/** Case factories the corpus files share: the same bad rows and bad files, for every command that reads them. */
import type { BaseRun } from "../hostile-base.ts";
import { rawLine, setField, withBytes } from "../hostile-base.ts";
import type { CaseFile, HostileCase } from "../hostile.ts";

type Make = (base: BaseRun) => CaseFile;
type Which = "rollouts" | "inputs" | "dataset";

/** Rows that are not rows: broken JSON, cut-off lines, non-objects, bad bytes, empty files. Each names file:line. */
export function badLines(file: string, which: Which, args: (file: string) => string[], prefix: string, options: { code?: number; truncatedOk?: boolean } = {}): HostileCase[] {
  const t = (b: BaseRun) => b[which];
  const line2 = `${file}:2`;
  const cases: [string, Make, (string | RegExp)[]][] = [
    ["invalid JSON on line 2", (b) => rawLine(t(b), 2, '{"reward": 1.0,, "x": 2}'), [line2]],
    ["a missing comma on line 2", (b) => rawLine(t(b), 2, '{"reward": 1.0 "x": 2}'), [line2]],
    ["line 2 is an array", (b) => rawLine(t(b), 2, "[1, 2, 3]"), [line2, "object"]],
    ["line 2 is a number", (b) => rawLine(t(b), 2, "42"), [line2, "object"]],
    ["line 2 is null", (b) => rawLine(t(b), 2, "null"), [line2, "object"]],
    ["invalid UTF-8 on line 2", (b) => withBytes(t(b), 2, [0xff, 0xfe]), [line2, /byte/i]],
    ["a lone continuation byte on line 2", (b) => withBytes(t(b), 2, [0x80]), [line2, /byte/i]],
    ["an overlong UTF-8 sequence on line 2", (b) => withBytes(t(b), 2, [0xc0, 0xaf]), [line2, /byte/i]],
    ["an empty file", () => "", [file, /empty/i]],
    ["a blank-only file", () => "\n   \n\t\n", [file, /empty|blank/i]],
  ];
  if (!options.truncatedOk) cases.push(["a cut-off middle line", (b) => rawLine(t(b), 2, t(b).split("\n")[1]!.slice(0, 12)), [line2]]);
  return cases.map(([name, make, message]) => ({ name: `${prefix}: ${name}`, files: { [file]: make }, args: args(file), code: options.code ?? 1, message }));
}

/** Wrong field types that would change metrics if accepted: each is an error naming file:line and the field. */
export function badRolloutFields(file: string, args: (file: string) => string[], prefix: string, fields: ("reward" | "agent_ref" | "task" | "rollout")[] = ["reward", "agent_ref", "task", "rollout"]): HostileCase[] {
  const line = `${file}:2`;
  const cases: [string, string, unknown][] = [];
  if (fields.includes("reward")) cases.push(["reward is a string", "reward", "1.0"], ["reward is a bool", "reward", true], ["reward is an object", "reward", { v: 1 }]);
  if (fields.includes("agent_ref")) cases.push(["agent_ref is a string", "agent_ref", "mcqa_simple_agent"], ["agent_ref.name is a number", "agent_ref", { name: 7 }]);
  if (fields.includes("task")) {
    cases.push(["_ng_task_index is a string", "_ng_task_index", "1"], ["_ng_task_index is a float", "_ng_task_index", 1.5], ["_ng_task_index is negative", "_ng_task_index", -1], ["_ng_task_index is 1e20", "_ng_task_index", 1e20]);
  }
  if (fields.includes("rollout")) cases.push(["_ng_rollout_index is a bool", "_ng_rollout_index", true], ["_ng_rollout_index is a string", "_ng_rollout_index", "0"]);
  return cases.map(([name, field, value]) => ({
    name: `${prefix}: ${name}`,
    files: { [file]: (b: BaseRun) => setField(file.includes("materialized") ? b.inputs : b.rollouts, 2, field, value) },
    args: args(file),
    message: [line, field === "agent_ref" && typeof value === "object" ? "agent_ref.name" : field],
  }));
}

/** Line `n` of `text` with a member nested `depth` arrays deep (past NeMo Gym's ~1000-level json limit). */
export function deepLine(text: string, n: number, depth = 5000): string {
  const lines = text.split("\n");
  lines[n - 1] = `${lines[n - 1]!.replace(/}\s*$/, "")}, "deep": ${"[".repeat(depth)}${"]".repeat(depth)}}`;
  return lines.join("\n");
}

/** A billion-laughs document: nine levels of ten aliases each. */
export function aliasBomb(): string {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(",")}]`);
  return `${lines.join("\n")}\n`;
}


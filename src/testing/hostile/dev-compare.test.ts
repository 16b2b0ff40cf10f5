/** Hostile inputs for `gym dev compare`: bad rows on either side, a --json PATH over an input. */
import { hostileSuite, type HostileCase } from "../hostile.ts";
import { badLines, badRolloutFields } from "./shared.ts";

const cases: HostileCase[] = [
  ...badLines("n.jsonl", "rollouts", (f) => ["dev", "compare", "r.jsonl", f], "dev compare NEW"),
  ...badLines("o.jsonl", "rollouts", (f) => ["dev", "compare", f, "r.jsonl"], "dev compare OLD"),
  ...badRolloutFields("n.jsonl", (f) => ["dev", "compare", "r.jsonl", f], "dev compare NEW", ["reward", "task"]),
  { name: "dev compare: --json is OLD", args: ["dev", "compare", "r.jsonl", "in.jsonl", "--json", "r.jsonl"], code: 2, message: ["--json", "OLD", "overwrite"] },
  { name: "dev compare: --json is NEW through a symlink", files: { "l.json": { symlink: "in.jsonl" } }, args: ["dev", "compare", "r.jsonl", "in.jsonl", "--json", "l.json"], code: 2, message: ["l.json", "NEW", "overwrite"] },
  { name: "dev compare: --json is an existing directory", files: { od: { dir: true } }, args: ["dev", "compare", "r.jsonl", "r.jsonl", "--json", "od"], code: 2, message: ["od", "directory"] },
  { name: "dev compare: --tail -1", args: ["dev", "compare", "r.jsonl", "r.jsonl", "--tail", "-1"], code: 2, message: ["--tail"] },
  { name: "dev compare: OLD does not exist", args: ["dev", "compare", "nope.jsonl", "r.jsonl"], message: ["nope.jsonl"] },
  { name: "dev compare: NEW is a directory", files: { dd: { dir: true } }, args: ["dev", "compare", "r.jsonl", "dd"], message: ["dd", "directory"] },
];

hostileSuite("hostile inputs: gym dev compare", cases);

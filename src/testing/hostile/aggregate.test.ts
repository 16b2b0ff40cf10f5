/** Hostile inputs for `gym eval aggregate`: bad shards, bad configs, outputs that would overwrite inputs. */
import { hostileSuite, type HostileCase } from "../hostile.ts";
import { setField } from "../hostile-base.ts";
import { aliasBomb, badLines, badRolloutFields } from "./shared.ts";

const agg = (file: string) => ["eval", "aggregate", "--input-glob", file, "-o", "out/merged.jsonl"];

const cases: HostileCase[] = [
  ...badLines("s.jsonl", "rollouts", agg, "aggregate"),
  ...badRolloutFields("s.jsonl", agg, "aggregate"),
  // A missing index is taken as 0 (as NeMo Gym does): the collision it makes is named as a missing field, not a repeat.
  { name: "aggregate: a row without _ng_task_index", files: { "s.jsonl": (b) => setField(b.rollouts, 2, "_ng_task_index", undefined) }, args: agg("s.jsonl"), message: ["s.jsonl:2 has no _ng_task_index", "takes a missing index as 0", /^(?![\s\S]*appears twice)/] },
  { name: "aggregate: a row without _ng_rollout_index", files: { "s.jsonl": (b) => setField(setField(b.rollouts, 2, "_ng_rollout_index", undefined), 2, "_ng_task_index", 0) }, args: agg("s.jsonl"), message: ["s.jsonl:2 has no _ng_rollout_index", /^(?![\s\S]*appears twice)/] },
  { name: "aggregate: -o is one of two shards", files: { "s.jsonl": (b) => b.rollouts.replace(/"_ng_task_index":(\d)/g, '"_ng_task_index":1$1') }, args: ["eval", "aggregate", "--input-glob", "r.jsonl,s.jsonl", "-o", "r.jsonl"], code: 2, message: ["r.jsonl", "--input-glob", "overwrite"] },
  { name: "aggregate: -o is one of two shards by another spelling", files: { sub: { dir: true }, "s.jsonl": (b) => b.rollouts.replace(/"_ng_task_index":(\d)/g, '"_ng_task_index":1$1') }, args: ["eval", "aggregate", "--input-glob", "r.jsonl,s.jsonl", "-o", "./sub/../s.jsonl"], code: 2, message: ["overwrite"] },
  { name: "aggregate: -o is a hard link to the shard", shell: "ln r.jsonl h.jsonl && $GYM eval aggregate --input-glob r.jsonl -o h.jsonl; s=$?; rm h.jsonl; exit $s", code: 2, message: ["h.jsonl", "overwrite"] },
  { name: "aggregate: -o is a symlink to the shard", files: { "link.jsonl": { symlink: "r.jsonl" } }, args: ["eval", "aggregate", "--input-glob", "r.jsonl", "-o", "link.jsonl"], code: 2, message: ["link.jsonl", "overwrite"] },
  { name: "aggregate: the metrics sidecar of -o is a shard", files: { "m_aggregate_metrics.json": (b) => b.rollouts }, args: ["eval", "aggregate", "--input-glob", "r.jsonl,m_aggregate_metrics.json", "-o", "m.jsonl"], code: 2, message: ["m_aggregate_metrics.json", "overwrite"] },
  { name: "aggregate: -o is an existing directory", files: { outdir: { dir: true } }, args: ["eval", "aggregate", "--input-glob", "r.jsonl", "-o", "outdir"], code: 2, message: ["outdir", "directory"] },
  { name: "aggregate: --output takes a flag as its value", args: ["eval", "aggregate", "--input-glob", "r.jsonl", "--output", "--no-merge"], code: 2, message: ["--output", "--no-merge"] },
  { name: "aggregate: --output without a value", args: ["eval", "aggregate", "--input-glob", "r.jsonl", "--output"], code: 2, message: ["--output", "value"] },
  { name: "aggregate: --input-glob \"\"", args: ["eval", "aggregate", "--input-glob", "", "-o", "m.jsonl"], code: 2, message: ["--input-glob", "empty value"] },
  { name: "aggregate: -o DIR/", args: ["eval", "aggregate", "--input-glob", "r.jsonl", "-o", "merged/"], code: 2, message: ["merged/", "folder"] },
  { name: "aggregate: a shard that does not exist", args: agg("nope.jsonl"), message: ["nope.jsonl"] },
  { name: "aggregate: a shard that is a directory", files: { "d.jsonl": { dir: true } }, args: agg("d.jsonl"), message: ["d.jsonl", "directory"] },
  { name: "aggregate: -o below a regular file (ENOTDIR)", args: ["eval", "aggregate", "--input-glob", "r.jsonl", "-o", "in.jsonl/merged.jsonl"], message: ["in.jsonl", "not a directory|is a file"].map((s) => new RegExp(s)) },
  { name: "aggregate: a config that is not valid UTF-8", files: { "c.yaml": new Uint8Array([0x61, 0x3a, 0x20, 0xff, 0x0a]) }, args: ["eval", "aggregate", "--config", "c.yaml", "--input-glob", "r.jsonl", "-o", "m.jsonl"], message: ["c.yaml", /byte/i] },
  { name: "aggregate: a config with a NUL byte", files: { "c.yaml": "a: 1\nb: x\u0000y\n" }, args: ["eval", "aggregate", "--config", "c.yaml", "--input-glob", "r.jsonl", "-o", "m.jsonl"], message: ["c.yaml", /NUL/] },
  { name: "aggregate: a YAML alias bomb in the config", files: { "c.yaml": aliasBomb() }, args: ["eval", "aggregate", "--config", "c.yaml", "--input-glob", "r.jsonl", "-o", "m.jsonl"], message: ["c.yaml", /alias/i] },
  { name: "aggregate: duplicate (task, rollout) across shards with different rows", files: { "a.jsonl": (b) => b.rollouts, "b.jsonl": (b) => b.rollouts.replace(/"reward":1\.0/, '"reward":0.0') }, args: ["eval", "aggregate", "--input-glob", "a.jsonl,b.jsonl", "-o", "m.jsonl"], message: [/b\.jsonl:\d/] },
];

hostileSuite("hostile inputs: gym eval aggregate", cases);

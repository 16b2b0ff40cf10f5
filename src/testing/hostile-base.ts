/** The real files the hostile corpus mutates: one offline `gym eval run` (mcqa, replay model), made once per test process. */
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "./binary.ts";
import { repoFile } from "./hostile.ts";

export interface BaseRun {
  /** The dataset (`in.jsonl`), the rollouts (`r.jsonl`) and their sidecars, as text. */
  dataset: string;
  rollouts: string;
  inputs: string;
  metrics: string;
}

let made: Promise<BaseRun> | undefined;

/** Runs `gym eval run --resources-server mcqa --model-type replay_model/mcqa_example` once and keeps its files. */
export function baseRun(): Promise<BaseRun> {
  made ??= (async () => {
    const dir = fs.mkdtempSync(join(tmpdir(), "gym-hostile-base-"));
    const result = await gym(["eval", "run", "--resources-server", "mcqa", "--model-type", "replay_model/mcqa_example", "-o", join(dir, "r.jsonl")]);
    if (result.code !== 0) throw new Error(`the base run failed: ${result.stderr}`);
    const read = (name: string) => fs.readFileSync(join(dir, name), "utf8");
    const base = { dataset: repoFile("src/components/resources_servers/mcqa/data/example.jsonl"), rollouts: read("r.jsonl"), inputs: read("r_materialized_inputs.jsonl"), metrics: read("r_aggregate_metrics.json") };
    fs.rmSync(dir, { recursive: true, force: true });
    return base;
  })();
  return made;
}

/** The text with line `n` (1-based) replaced by what `edit` makes of its parsed row (a string is used as the raw line). */
export function editLine(text: string, n: number, edit: (row: Record<string, unknown>) => unknown): string {
  const lines = text.split("\n");
  const row = JSON.parse(lines[n - 1]!) as Record<string, unknown>;
  const out = edit(row);
  lines[n - 1] = typeof out === "string" ? out : JSON.stringify(out ?? row);
  return lines.join("\n");
}

/** Sets (or with `undefined`, deletes) a field of line `n`. */
export function setField(text: string, n: number, field: string, value: unknown): string {
  return editLine(text, n, (row) => {
    if (value === undefined) delete row[field];
    else row[field] = value;
    return row;
  });
}

/** Replaces line `n` with raw text (bytes allowed through latin1-free concatenation). */
export function rawLine(text: string, n: number, line: string): string {
  const lines = text.split("\n");
  lines[n - 1] = line;
  return lines.join("\n");
}

/** The text with bytes spliced into line `n` (an invalid UTF-8 sequence, a NUL…). */
export function withBytes(text: string, n: number, bytes: number[]): Uint8Array {
  const lines = text.split("\n");
  const head = lines.slice(0, n - 1).join("\n") + (n > 1 ? "\n" : "");
  const line = lines[n - 1]!;
  const cut = line.indexOf('"', line.indexOf(":") + 1) + 1;
  const enc = new TextEncoder();
  return Buffer.concat([enc.encode(head + line.slice(0, cut)), Buffer.from(bytes), enc.encode(line.slice(cut) + "\n" + lines.slice(n).join("\n"))]);
}

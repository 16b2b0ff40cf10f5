/**
 * Materialized inputs rebuilt from rollouts alone, for `gym eval profile --rollouts -` in a pipe, where the run's
 * `_materialized_inputs.jsonl` is not at hand: each rollout row without what the rollout produced.
 */
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readJsonlBatches } from "../../jsonl/read.ts";
import { JsonlBlockWriter } from "../../jsonl/write.ts";
import { readBytes } from "../../runtime/files.ts";

/** What a rollout adds to its input row; verifier extras cannot be told apart from task fields and stay. */
const PRODUCED = new Set(["response", "reward", "_ng_attempt_index"]);

export interface DerivedInputs {
  inputs: string;
  rollouts: string;
  /** Removes the temporary files. */
  cleanup(): void;
}

/** Writes an inputs file (and, for stdin, a copy of the rollouts) into a temporary folder. */
export async function inputsFromRollouts(rollouts: string): Promise<DerivedInputs> {
  const dir = fs.mkdtempSync(join(tmpdir(), "gym-profile-"));
  let source = rollouts;
  if (rollouts === "-") {
    source = join(dir, "rollouts.jsonl");
    const fd = fs.openSync(source, "w");
    for await (const chunk of readBytes("-")) fs.writeSync(fd, chunk);
    fs.closeSync(fd);
  }
  const inputs = join(dir, "materialized_inputs.jsonl");
  const writer = new JsonlBlockWriter(inputs);
  for await (const batch of readJsonlBatches(source)) {
    for (const { value } of batch) {
      const row: Record<string, unknown> = {};
      for (const key in value) if (!PRODUCED.has(key)) row[key] = value[key];
      await writer.write(row);
    }
  }
  await writer.close();
  return { inputs, rollouts: source, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

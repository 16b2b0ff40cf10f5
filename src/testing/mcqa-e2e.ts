/** For model server end-to-end tests: `gym eval run` of mcqa on the compiled binary, its output rows. */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "./binary.ts";
import { writeMcqaDataset } from "./datasets.ts";

/** `gym eval run` of mcqa (4 tasks × 2 repeats) with `args` naming the model; its exit code, stderr and output rows. */
export async function mcqaOnBinary(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stderr: string; rollouts: Record<string, unknown>[] }> {
  const dir = mkdtempSync(join(tmpdir(), "gym-model-e2e-"));
  writeMcqaDataset(join(dir, "tasks.jsonl"), 4);
  const out = join(dir, "results", "mcqa.jsonl");
  const r = await gym(["eval", "run", "--resources-server", "mcqa", ...args, "--input", "tasks.jsonl", "--num-repeats", "2", "-o", out], { cwd: dir, env });
  const rollouts = existsSync(out) ? readFileSync(out, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
  return { code: r.code, stderr: r.stderr, rollouts };
}

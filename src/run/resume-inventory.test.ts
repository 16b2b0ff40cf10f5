/**
 * A resume takes its inventory from the saved files when the materialization key matches (no rows made again):
 * those files are trusted only while they check out. A damaged identities file or an edited inputs file is never
 * used: the resume makes the rows again and compares, and still ends with exactly one row per rollout.
 */
import { beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, gym } from "../testing/binary.ts";
import { writeMcqaDataset } from "../testing/datasets.ts";

let dir: string;
beforeAll(async () => {
  await ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "gym-resume-inventory-"));
  writeMcqaDataset(join(dir, "tasks.jsonl"), 25);
}, 120_000);

const args = (output: string, extra: string[] = []) => ["eval", "run", "--resources-server", "mcqa", "--model-type", "mock_model", "--input", join(dir, "tasks.jsonl"), "--num-repeats", "4", "--concurrency", "8", "--output", output, "--disable-aggregation", ...extra];
const lines = (path: string) => readFileSync(path, "utf8").split("\n").filter(Boolean);
const ids = (path: string) => lines(path).map((l) => JSON.parse(l)).map((r) => `${r._ng_task_index}-${r._ng_rollout_index}`);

/** Cuts the last `n` rows off the rollouts file, as a killed run leaves it. */
function cut(path: string, n: number): void {
  const kept = lines(path).slice(0, -n);
  truncateSync(path, Buffer.byteLength(kept.map((l) => `${l}\n`).join("")));
}

async function resumeAndCheck(out: string): Promise<string> {
  const resumed = await gym(args(out, ["--resume"]), { cwd: dir });
  expect({ code: resumed.code, stderr: resumed.stderr.slice(-400) }).toMatchObject({ code: 0 });
  const seen = ids(out);
  expect(seen.length).toBe(100);
  expect(new Set(seen).size).toBe(100);
  return resumed.stderr;
}

test("resume with matching key: the saved identities; a damaged identities file or an edited inputs file is not trusted", async () => {
  const out = join(dir, "run", "r.jsonl");
  expect((await gym(args(out), { cwd: dir })).code).toBe(0);
  const idsFile = join(dir, "run", "r_materialized_ids.txt");
  expect(lines(idsFile).length).toBe(100);

  cut(out, 10);
  expect(await resumeAndCheck(out)).toContain("100 rollouts expected (90 done, 10 run); dispatching 10");

  // Half the identities gone: trusted, the resume would expect 50 rollouts. Its hash is checked, so all 100 are.
  cut(out, 10);
  writeFileSync(idsFile, `${lines(idsFile).slice(0, 50).join("\n")}\n`);
  expect(await resumeAndCheck(out)).toContain("100 rollouts expected (90 done, 10 run); dispatching 10");

  // The inputs file edited (same size, new bytes): the resume compares the current rows with it and refuses.
  cut(out, 10);
  const inputs = join(dir, "run", "r_materialized_inputs.jsonl");
  writeFileSync(inputs, readFileSync(inputs, "utf8").replace('"uuid":"task-3"', '"uuid":"task-X"'));
  const refused = await gym(args(out, ["--resume"]), { cwd: dir });
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain("no longer matches the manifest");
}, 120_000);

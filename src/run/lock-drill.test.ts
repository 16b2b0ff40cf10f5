/** The stale-lock drill on the compiled binary: two `eval run --resume` started together on a run whose lock is stale write each rollout once. */
import { beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, gym } from "../testing/binary.ts";
import { writeMcqaDataset } from "../testing/datasets.ts";

const ROUNDS = 6;
let dir: string;
beforeAll(async () => {
  await ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "gym-lock-drill-"));
  writeMcqaDataset(join(dir, "tasks.jsonl"), 40);
}, 120_000);

test(`${ROUNDS} rounds: two collectors on one stale lock — one runs, the other is refused, no duplicate row`, async () => {
  for (let round = 0; round < ROUNDS; round++) {
    const out = join(dir, `round-${round}`, "r.jsonl");
    mkdirSync(join(dir, `round-${round}`));
    // The lock of a collector that is gone (a pid that cannot exist) and an earlier boot.
    writeFileSync(join(dir, `round-${round}`, "r_run.lock"), `${JSON.stringify({ pid: 2 ** 22 + 11, host: hostname(), started: "2026-01-01T00:00:00Z", boot: "an-earlier-boot" })}\n`);
    const args = ["eval", "run", "--resources-server", "mcqa", "--model-type", "mock_model", "++policy_model.responses_api_models.mock_model.latency_ms=20"];
    const runArgs = [...args, "--input", join(dir, "tasks.jsonl"), "--num-repeats", "2", "--concurrency", "8", "--output", out, "--resume"];
    const [a, b] = await Promise.all([gym(runArgs, { cwd: dir }), gym(runArgs, { cwd: dir })]);
    const codes = [a.code, b.code].sort();
    // Either one was refused (the other holds the lock), or the second found the first finished and resumed nothing.
    expect({ codes, stderr: codes[1] === 0 ? "" : [a.stderr, b.stderr].join("\n").slice(-800) }).toMatchObject({ codes: expect.arrayContaining([0]) });
    for (const r of [a, b]) if (r.code !== 0) expect(r.stderr).toContain("Another collector");
    const rows = readFileSync(out, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
    const keys = rows.map((row) => `${row._ng_task_index}-${row._ng_rollout_index}`);
    expect(new Set(keys).size).toBe(80);
    expect(keys.length).toBe(80);
  }
}, 120_000);

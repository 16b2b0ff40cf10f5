import { afterAll, expect, test } from "bun:test";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, gym, gymBinary } from "../../../testing/binary.ts";
import { writeMcqaDataset } from "../../../testing/datasets.ts";

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

let servers: ChildProcess | undefined;
afterAll(() => {
  if (servers && servers.exitCode === null) servers.kill("SIGKILL");
});

test("eval run --no-serve collects against servers started by `gym env start` (found through the head server)", async () => {
  await ensureBinary();
  const dir = mkdtempSync(join(tmpdir(), "gym-no-serve-"));
  writeMcqaDataset(join(dir, "tasks.jsonl"), 4);
  const head = `+head_server.port=${await freePort()}`;
  servers = spawn(gymBinary, ["env", "start", "--resources-server", "mcqa", "--model-type", "mock_model", "--json", head], { stdio: ["ignore", "pipe", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    servers!.stdout!.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve();
    });
    servers!.on("exit", (code) => reject(new Error(`env start exited ${code}`)));
  });

  const out = join(dir, "r.jsonl");
  const r = await gym(["eval", "run", "--no-serve", head, "--input", join(dir, "tasks.jsonl"), "--num-repeats", "2", "--concurrency", "1", "-o", out]);
  expect(r.stderr).toContain("Coverage: 8 of 8 rollouts scored");
  expect(r.code).toBe(0);
  const rows = readFileSync(out, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
  expect(rows.length).toBe(8);
  expect(rows.every((row) => row.agent_ref.name === "mcqa_simple_agent")).toBe(true);
  const metrics = JSON.parse(readFileSync(join(dir, "r_aggregate_metrics.json"), "utf8"));
  expect(metrics[0].agent_ref.name).toBe("mcqa_simple_agent");

  // The same run with every server in this process (direct calls, no wire) writes the same bytes: rollouts,
  // health reports (the writer-fed ones against the HTTP run's, same code path) and cost.
  const local = join(dir, "local", "r.jsonl");
  const l = await gym(["eval", "run", "--resources-server", "mcqa", "--model-type", "mock_model", "--input", join(dir, "tasks.jsonl"), "--num-repeats", "2", "--concurrency", "1", "-o", local]);
  expect(l.code).toBe(0);
  for (const file of ["r.jsonl", "r_rollout_verdicts.jsonl", "r_cost.json", "r_materialized_inputs.jsonl"]) expect(readFileSync(join(dir, "local", file), "utf8")).toBe(readFileSync(join(dir, file), "utf8"));
  const summary = (path: string) => ({ ...JSON.parse(readFileSync(path, "utf8")), rollouts_file: null });
  expect(summary(join(dir, "local", "r_quality_summary.json"))).toEqual(summary(join(dir, "r_quality_summary.json")));

  servers.kill("SIGTERM");
  expect(await new Promise((resolve) => servers!.on("exit", resolve))).toBe(0);
}, 90_000);

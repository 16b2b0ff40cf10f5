// ioi through the compiled binary: `gym eval prepare --benchmark ioi` against the 127.0.0.1 Hub stand-in (real
// Parquet bytes, the test cases in two shards) with the run/compile scripts already in the download cache, then
// `gym eval run --benchmark ioi` on the mock model, whose echo is no C++: every rollout compiles to nothing and scores 0.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectSandbox } from "../../../sandbox/index.ts";
import { ensureBinary, gym } from "../../../testing/binary.ts";
import { type HubServer, startHubServer } from "../../../testing/hub-server.ts";
import { parquetBytes } from "../../../testing/parquet.ts";
import { COMPILE_SH, RUN_SH } from "../../resources_servers/competitive_coding_challenges/_fixtures/toy-problem.ts";
import { COMPILE_URL, RUN_URL } from "./prepare.ts";

const hasBwrap = (await detectSandbox()).kind === "bwrap";
if (!hasBwrap) console.warn("skip: the ioi eval run test because bubblewrap is not available (apt-get install bubblewrap)");
const CONVERT = { revision: "refs/convert/parquet" };
const grader = JSON.stringify({ task_type: "Batch", code: "addition", time_limit: 1, memory_limit: 268435456 });
const graderFiles = [["graders/grader_config.json", grader]];
const problemRow = (subtask: string, score: number, tests: string[]) => ({ id: "addition", name: "Addition", subtask, score, score_precision: 0, problem: "Add two numbers.", test_names: tests, grader_files: graderFiles });

let hub: HubServer;
let cwd: string;
beforeAll(async () => {
  await ensureBinary();
  cwd = mkdtempSync(join(tmpdir(), "gym-ioi-"));
  hub = await startHubServer();
  const problems = [problemRow("00-samples", 0, ["0-01"]), problemRow("01-small", 40, ["0-01", "1-01"]), problemRow("02-large", 60, ["1-01", "2-01"])];
  hub.addFile("open-r1/ioi", "default/test/0000.parquet", parquetBytes(problems, { json: ["test_names", "grader_files"] }), CONVERT);
  const test = (name: string, input: string, output: string) => ({ problem_name: "Addition", test_name: name, test_input: input, test_output: output });
  hub.addFile("open-r1/ioi-test-cases", "2024/train/0000.parquet", parquetBytes([test("0-01", "1 2\n", "3\n"), test("1-01", "5 5\n", "10\n")]), CONVERT);
  hub.addFile("open-r1/ioi-test-cases", "2024/train/0001.parquet", parquetBytes([test("2-01", "2000000000 2000000000\n", "4000000000\n")]), CONVERT);
  for (const [url, text] of [[RUN_URL, RUN_SH], [COMPILE_URL, COMPILE_SH]] as const) {
    const u = new URL(url);
    const dest = join(cwd, "cache", "url", u.host, ...u.pathname.split("/").filter(Boolean));
    mkdirSync(join(dest, ".."), { recursive: true });
    writeFileSync(dest, text);
  }
}, 120_000);
afterAll(async () => {
  await hub.close();
  rmSync(cwd, { recursive: true, force: true });
});

describe("ioi", () => {
  test("prepare writes NeMo Gym's benchmark rows and the CCC-wrapped metadata (tests from every shard)", async () => {
    const r = await gym(["eval", "prepare", "--benchmark", "ioi"], { cwd, env: { HF_ENDPOINT: hub.url, NEMO_GYM_CACHE_DIR: join(cwd, "cache") } });
    expect(r.stderr).not.toContain("Error");
    expect(r.code).toBe(0);
    const rows = readFileSync(join(cwd, "benchmarks/ioi/data/ioi24_benchmark.jsonl"), "utf8").split("\n").map((l) => JSON.parse(l));
    expect(rows).toEqual([
      { competition_id: "ioi24", problem_id: "addition", subtask: "01-small", subtask_score: 40, name: "Addition", question: "Add two numbers." },
      { competition_id: "ioi24", problem_id: "addition", subtask: "02-large", subtask_score: 60, name: "Addition", question: "Add two numbers." },
    ]);
    const metadata = JSON.parse(readFileSync(join(cwd, "benchmarks/ioi/data/ioi24_metadata.json"), "utf8"));
    expect(Object.keys(metadata.metadata.addition)).toEqual(["01-small", "02-large"]);
    expect(metadata.metadata.addition["02-large"].tests).toEqual({ "1-01": { input: "5 5\n", output: "10\n" }, "2-01": { input: "2000000000 2000000000\n", output: "4000000000\n" } });
    expect([metadata.metadata.addition["01-small"].run, metadata.metadata.addition["01-small"].grader_files]).toEqual([RUN_SH, graderFiles]);
  }, 120_000);

  (hasBwrap ? test : test.skip)("eval run --benchmark ioi on the mock model: each subtask row compiled and scored 0, total_score in the metrics", async () => {
    const run = await gym(["eval", "run", "--benchmark", "ioi", "--model-type", "mock_model", "--limit", "2", "--num-repeats", "1", "-o", "r/ioi.jsonl"], { cwd });
    expect(run.stderr).not.toContain("Error");
    expect(run.code).toBe(0);
    const rollouts = readFileSync(join(cwd, "r/ioi.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rollouts.map((r) => [r.problem_id, r.subtask, r.reward]).sort()).toEqual([["addition", "01-small", 0], ["addition", "02-large", 0]]);
    for (const r of rollouts) expect(r.details.test_case_results[r.subtask].outputs[0].compile_success).toBe(false);
    const metrics = JSON.parse(readFileSync(join(cwd, "r/ioi_aggregate_metrics.json"), "utf8"))[0].agent_metrics;
    expect([metrics.total_score, metrics.per_problem_subtask_scores]).toEqual([0, { addition: { total: { score: 0, max_score: 100 }, subtasks: {} } }]);
  }, 180_000);
});

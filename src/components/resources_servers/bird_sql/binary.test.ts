// End to end on the compiled binary: `gym eval reverify` re-scores the published rollouts on the sample database,
// its SQL children being the binary itself (BUN_BE_BUN), and matches the verdicts NeMo Gym gave on the same file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, gym } from "../../../testing/binary.ts";
import { promptKey, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import { birdDatabasesDir } from "./index.ts";

const dir = import.meta.dir;
const work = mkdtempSync(join(tmpdir(), "gym-bird-bin-"));
beforeAll(() => ensureBinary(), 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("bird_sql on the compiled binary", () => {
  test("eval reverify re-scores the published rollouts on the sample database", async () => {
    const root = join(work, "bird");
    mkdirSync(join(birdDatabasesDir(root), "california_schools"), { recursive: true });
    copyFileSync(join(dir, "_fixtures/sample.sqlite"), join(birdDatabasesDir(root), "california_schools", "california_schools.sqlite"));
    const tasks = readJsonlFile(dir, "data/example.jsonl");
    const index = new Map(tasks.map((t, i) => [promptKey(t.responses_create_params as any), i]));
    const agent = { name: "bird_sql_simple_agent" };
    writeFileSync(join(work, "inputs.jsonl"), tasks.map((t, i) => JSON.stringify({ ...t, agent_ref: agent, _ng_task_index: i, _ng_rollout_index: 0 })).join("\n") + "\n");
    const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl").map((r) => ({ ...r, agent_ref: agent, _ng_task_index: index.get(promptKey(r.responses_create_params as any)), _ng_rollout_index: 0 }));
    writeFileSync(join(work, "rollouts.jsonl"), rollouts.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const out = join(work, "out.jsonl");
    const result = await gym(["eval", "reverify", "--resources-server", "bird_sql", `++bird_sql_resources_server.resources_servers.bird_sql.bird_sql_dir=${root}`,
      "--inputs", join(work, "inputs.jsonl"), "--rollouts", join(work, "rollouts.jsonl"), "-o", out, "--json"], { cwd: work });
    expect(result.code).toBe(0);
    const verdicts = readJsonFile<any>(dir, "_fixtures/vectors.json").sample_db_verdicts as { id: number; match: boolean }[];
    const rows = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(row.reward).toBe(verdicts.find((v) => v.id === row.id)!.match ? 1 : 0);
  }, 120_000);
});

// End to end on the compiled binary: `gym eval reverify` re-scores the published rollouts on the sample database,
// its SQL children being the binary itself (BUN_BE_BUN), and matches the verdicts NeMo Gym gave on the same file;
// a hostile answer's child is killed at its deadline.
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
    const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl").map((r) => ({ ...r, agent_ref: agent, _ng_task_index: index.get(promptKey(r.responses_create_params as any)), _ng_rollout_index: 0 }));
    // One hostile answer too: an endless recursive CTE, killed at the (lowered) deadline by the binary's child.
    const endless = structuredClone(rollouts[0]!) as any;
    endless._ng_rollout_index = 1;
    endless.response.output.at(-1).content[0].text = "```sql\nWITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c\n```";
    writeFileSync(join(work, "inputs.jsonl"), [...tasks.map((t, i) => ({ ...t, agent_ref: agent, _ng_task_index: i, _ng_rollout_index: 0 })), { ...tasks[endless._ng_task_index]!, agent_ref: agent, _ng_task_index: endless._ng_task_index, _ng_rollout_index: 1 }].map((r) => JSON.stringify(r)).join("\n") + "\n");
    writeFileSync(join(work, "rollouts.jsonl"), [...rollouts, endless].map((r) => JSON.stringify(r)).join("\n") + "\n");
    const out = join(work, "out.jsonl");
    const result = await gym(["eval", "reverify", "--resources-server", "bird_sql", `++bird_sql_resources_server.resources_servers.bird_sql.bird_sql_dir=${root}`, "++bird_sql_resources_server.resources_servers.bird_sql.sql_execution_timeout_s=2",
      "--inputs", join(work, "inputs.jsonl"), "--rollouts", join(work, "rollouts.jsonl"), "-o", out, "--json"], { cwd: work });
    expect(result.code).toBe(0);
    const verdicts = readJsonFile<any>(dir, "_fixtures/vectors.json").sample_db_verdicts as { id: number; match: boolean }[];
    const rows = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rows).toHaveLength(6);
    for (const row of rows.filter((r) => r._ng_rollout_index === 0)) expect(row.reward).toBe(verdicts.find((v) => v.id === row.id)!.match ? 1 : 0);
    const killed = rows.find((r) => r._ng_rollout_index === 1)!;
    expect([killed.reward, killed.failure_reason]).toEqual([0, "execution_error"]);
    expect(killed.sql_error).toMatch(/^timeout: the query ran past its 2 s deadline/);
  }, 120_000);
});

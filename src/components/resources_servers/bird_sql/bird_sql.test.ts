import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { post, promptKey, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import { answer, vectorRows } from "../_sql/testing.ts";
import { resultSetsMatch } from "./compare.ts";
import { extractSql, hasSqlCodeblock } from "./extract.ts";
import createBirdSql, { BIRD_DEV_URL, birdDatabasesDir } from "./index.ts";

const dir = import.meta.dir;
const vectors = readJsonFile<any>(dir, "_fixtures/vectors.json");

const rows = vectorRows;

describe("bird_sql: extraction (labelled by NeMo Gym)", () => {
  for (const [i, v] of vectors.extraction.entries()) {
    test(`text ${i}: ${JSON.stringify(v.text.slice(0, 40))}`, () => {
      expect(extractSql(v.text)).toBe(v.extracted_sql);
      expect(hasSqlCodeblock(v.text)).toBe(v.had_codeblock);
    });
  }
  test("None and empty give the filler", () => {
    expect(extractSql(null)).toBe("SELECT 1");
    expect(hasSqlCodeblock(undefined)).toBe(false);
  });
});

describe("bird_sql: result-set equality (labelled by NeMo Gym)", () => {
  for (const [i, v] of vectors.comparisons.entries()) {
    test(`pair ${i}: ${JSON.stringify(v.gold)} vs ${JSON.stringify(v.pred)}`, () => {
      expect(resultSetsMatch(rows(v.gold), rows(v.pred))).toBe(v.match);
    });
  }
});

// A bird_sql_dir holding the fixture sample as dev_20240627/dev_databases/california_schools/california_schools.sqlite.
const root = mkdtempSync(join(tmpdir(), "gym-bird-"));
const dbFolder = join(birdDatabasesDir(root), "california_schools");
mkdirSync(dbFolder, { recursive: true });
const dbFile = join(dbFolder, "california_schools.sqlite");
copyFileSync(join(dir, "_fixtures/sample.sqlite"), dbFile);
const app = createBirdSql({ bird_sql_dir: root, sql_execution_timeout_s: 5, max_result_rows: 10_000 });
afterAll(() => rmSync(root, { recursive: true, force: true }));

const tasks = readJsonlFile(dir, "data/example.jsonl");
const byPrompt = new Map(tasks.map((row) => [promptKey(row.responses_create_params as any), row]));
const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");

describe("bird_sql: published rollouts on the sample database (verdicts labelled by NeMo Gym on the same file)", () => {
  for (const [i, rollout] of rollouts.entries()) {
    test(`rollout ${i}`, async () => {
      const task = byPrompt.get(promptKey(rollout.responses_create_params as any))!;
      const expected = vectors.sample_db_verdicts[i];
      expect(task.id).toBe(expected.id);
      const reply = await post(app, "/verify", { ...task, response: rollout.response });
      expect(reply.status).toBe(200);
      expect(reply.body.extracted_sql).toBe(expected.extracted_sql);
      expect(reply.body.execution_match).toBe(expected.match);
      expect(reply.body.reward).toBe(expected.match ? 1 : 0);
      expect(reply.body.failure_reason).toBe(expected.match ? "none" : "execution_error");
      expect(Boolean(reply.body.sql_error)).toBe(expected.error === "pred_sql_error");
    });
  }
});

// The real BIRD dev databases are ~1.4 GB behind BIRD_DEV_URL; with them (GYM_BIRD_SQL_DIR = a bird_sql_dir that has
// dev_20240627/dev_databases) the published rewards themselves are re-scored.
const realRoot = process.env.GYM_BIRD_SQL_DIR;
const haveReal = !!realRoot && existsSync(join(birdDatabasesDir(realRoot), "california_schools", "california_schools.sqlite"));
if (!haveReal) console.warn(`[bird_sql] SKIPPED: published rewards need the real BIRD dev databases (${BIRD_DEV_URL}); set GYM_BIRD_SQL_DIR to a bird_sql_dir holding dev_20240627/dev_databases to run them.`);
describe("bird_sql: published rewards on the real BIRD database", () => {
  test.skipIf(!haveReal)("example_rollouts.jsonl: 5 of 5 rewards reproduce", async () => {
    const real = createBirdSql({ bird_sql_dir: realRoot! });
    for (const rollout of rollouts) {
      const task = byPrompt.get(promptKey(rollout.responses_create_params as any))!;
      const reply = await post(real, "/verify", { ...task, response: rollout.response });
      expect(reply.body.reward).toBe(rollout.reward);
    }
  });
});

describe("bird_sql: hostile queries score 0 with a reason and change nothing on disk", () => {
  const task = tasks[0]!;
  const hostile: [string, string, RegExp][] = [
    ["endless recursive CTE", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c", /^timeout: /],
    ["huge cross join", "SELECT a.CDSCode FROM frpm a, frpm b, frpm c, frpm d, frpm e, schools f", /^rows: /],
    ["ATTACH", "ATTACH DATABASE '/tmp/gym-bird-attached.sqlite' AS x", /^refused: .*ATTACH/],
    ["load_extension", "SELECT load_extension('/tmp/nothing.so')", /^sql: not authorized/],
    ["DELETE", "DELETE FROM frpm", /^refused: .*DELETE/],
    ["write hidden in a CTE", "WITH x AS (SELECT 1) DELETE FROM frpm", /^refused: .*change the database/],
    ["VACUUM INTO", "VACUUM INTO '/tmp/gym-bird-copy.sqlite'", /^refused: .*VACUUM/],
    ["PRAGMA that lifts query_only", "PRAGMA query_only = OFF", /^refused: .*PRAGMA/],
    ["two statements", "SELECT 1; DROP TABLE frpm", /^sql: You can only execute one statement at a time\.$/],
  ];
  const before = () => ({ bytes: readFileSync(dbFile), mtime: statSync(dbFile).mtimeMs, files: existsSync(`${dbFile}-journal`) || existsSync(`${dbFile}-wal`) });
  for (const [name, sql, reason] of hostile) {
    test(name, async () => {
      const was = before();
      const limited = name === "huge cross join" ? createBirdSql({ bird_sql_dir: root, max_result_rows: 1000, sql_execution_timeout_s: 20 }) : name.startsWith("endless") ? createBirdSql({ bird_sql_dir: root, sql_execution_timeout_s: 0.5 }) : app;
      const reply = await post(limited, "/verify", { ...task, response: answer(`\`\`\`sql\n${sql}\n\`\`\``) });
      expect(reply.status).toBe(200);
      expect(reply.body.reward).toBe(0);
      expect(reply.body.failure_reason).toBe("execution_error");
      expect(reply.body.sql_error).toMatch(reason);
      const now = before();
      expect(Buffer.compare(now.bytes, was.bytes)).toBe(0);
      expect(now.mtime).toBe(was.mtime);
      expect(now.files).toBe(false);
      expect(existsSync("/tmp/gym-bird-attached.sqlite") || existsSync("/tmp/gym-bird-copy.sqlite")).toBe(false);
    }, 30_000);
  }
  test("a result that outgrows the memory cap kills its child", async () => {
    const small = createBirdSql({ bird_sql_dir: root, max_result_rows: 1_000_000_000, memory_limit_mb: 300, sql_execution_timeout_s: 60 });
    const sql = "SELECT a.`School Name`, b.`School Name` FROM frpm a, frpm b, frpm c, frpm d, frpm e, frpm f, frpm g, frpm h";
    const reply = await post(small, "/verify", { ...task, response: answer(`\`\`\`sql\n${sql}\n\`\`\``) });
    expect([reply.body.reward, reply.body.failure_reason]).toEqual([0, "execution_error"]);
    expect(reply.body.sql_error).toMatch(/^memory: the query used more than 300 MiB/);
  }, 60_000);
  test("after a killed query the next one runs in a fresh child", async () => {
    const fast = createBirdSql({ bird_sql_dir: root, sql_execution_timeout_s: 0.3 });
    const loop = await post(fast, "/verify", { ...task, response: answer("```sql\nWITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c\n```") });
    expect(loop.body.sql_error).toMatch(/^timeout: /);
    const ok = await post(fast, "/verify", { ...task, response: answer(`\`\`\`sql\n${task.gt_sql}\n\`\`\``) });
    expect([ok.body.reward, ok.body.failure_reason, ok.body.sql_error]).toEqual([1, "none", undefined]);
  });
});

describe("bird_sql: protocol", () => {
  test("response fields follow NeMo Gym's model, request extras after them", async () => {
    const task = tasks[0]!;
    const reply = await post(app, "/verify", { ...task, response: answer("no code") });
    expect(Object.keys(reply.body)).toEqual([
      "responses_create_params", "response", "reward", "question", "gt_sql", "db_id", "difficulty", "id",
      "model_output", "extracted_sql", "had_codeblock", "execution_match", "failure_reason", "sql_context",
    ]);
    expect([reply.body.extracted_sql, reply.body.failure_reason]).toEqual(["SELECT 1", "no_sql_extracted"]);
  });
});

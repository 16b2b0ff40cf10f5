import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { post, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import { answer, vectorRows } from "../_sql/testing.ts";
import { compareMultiResultSets } from "./compare.ts";
import { extractSql } from "./extract.ts";
import createSpider2Lite, { SPIDER2_LITE_URL } from "./index.ts";

const dir = import.meta.dir;
const vectors = readJsonFile<any>(dir, "_fixtures/vectors.json");

const rows = vectorRows;
const params = { input: [{ role: "user", content: "Q" }] };

describe("spider2_lite: extraction (labelled by NeMo Gym)", () => {
  for (const [i, v] of vectors.extraction.entries()) {
    test(`text ${i}: ${JSON.stringify(v.text.slice(0, 40))}`, () => expect(extractSql(v.text)).toBe(v.extracted_sql));
  }
});

describe("spider2_lite: column-vector comparison (labelled by NeMo Gym)", () => {
  for (const [i, v] of vectors.comparisons.entries()) {
    test(`pair ${i}: cols ${JSON.stringify(v.condition_cols)}, ignore_order ${v.ignore_order}`, () => {
      expect(compareMultiResultSets(v.gold_sets.map(rows), rows(v.pred), v.condition_cols, v.ignore_order)).toBe(v.match);
    });
  }
});

const root = mkdtempSync(join(tmpdir(), "gym-spider2-"));
mkdirSync(join(root, "sqlite"));
copyFileSync(join(dir, "_fixtures/tiny.sqlite"), join(root, "sqlite", "tiny.sqlite"));
const app = createSpider2Lite({ spider2_lite_dir: root, sql_execution_timeout_s: 5 });
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("spider2_lite: gold_sql on a database (verdicts labelled by NeMo Gym on the same file)", () => {
  for (const [i, v] of vectors.tiny_db_verdicts.entries()) {
    test(`query pair ${i} (ignore_order ${v.ignore_order})`, async () => {
      const body = { responses_create_params: params, response: answer(`\`\`\`sql\n${v.pred_sql}\n\`\`\``), db_id: "tiny", question: "Q", gold_sql: v.gold_sql, ignore_order: v.ignore_order };
      const reply = await post(app, "/verify", body);
      expect(reply.status).toBe(200);
      expect([reply.body.reward, reply.body.execution_match, reply.body.failure_reason]).toEqual([v.match ? 1 : 0, v.match, v.match ? "none" : "execution_error"]);
    });
  }
  test("gold_result sets (strings, as the CSVs give them) are compared after coercion", async () => {
    const body = { responses_create_params: params, response: answer("```sql\nSELECT player_name, runs FROM player WHERE runs >= 100\n```"), db_id: "tiny", question: "Q", gold_result: [[["x"]], [["SR Watson", "117"], ["V Kohli", "100.5"]]] };
    const reply = await post(app, "/verify", body);
    expect([reply.body.reward, reply.body.failure_reason]).toEqual([1, "none"]);
  });
  test("no SQL found, and no gold at all", async () => {
    const none = await post(app, "/verify", { responses_create_params: params, response: answer("I cannot answer"), db_id: "tiny", question: "Q", gold_sql: "SELECT 1" });
    expect([none.body.reward, none.body.extracted_sql, none.body.failure_reason]).toEqual([0, null, "no_sql_extracted"]);
    const res = await app.request("http://localhost/verify", { method: "POST", body: JSON.stringify({ responses_create_params: params, response: answer("```sql\nSELECT 1\n```"), db_id: "tiny", question: "Q" }) });
    expect(res.status).toBe(500);
  });
  test("hostile queries score 0 with a reason", async () => {
    const fast = createSpider2Lite({ spider2_lite_dir: root, sql_execution_timeout_s: 0.5 });
    const before = readFileSync(join(root, "sqlite", "tiny.sqlite"));
    for (const [sql, reason] of [
      ["WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c", /^timeout: /],
      ["ATTACH DATABASE ':memory:' AS m", /^refused: /],
      ["DROP TABLE player", /^refused: /],
      ["UPDATE player SET runs = 0", /^refused: /],
    ] as const) {
      const reply = await post(fast, "/verify", { responses_create_params: params, response: answer(`\`\`\`sql\n${sql}\n\`\`\``), db_id: "tiny", question: "Q", gold_sql: "SELECT 1" });
      expect([reply.body.reward, reply.body.failure_reason]).toEqual([0, "execution_error"]);
      expect(reply.body.sql_error).toMatch(reason);
    }
    expect(Buffer.compare(readFileSync(join(root, "sqlite", "tiny.sqlite")), before)).toBe(0);
  });
});

const tasks = readJsonlFile(dir, "data/example.jsonl");
const byInstance = new Map(tasks.map((t) => [t.instance_id, t]));
const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");

describe("spider2_lite: published rollouts", () => {
  for (const [i, rollout] of rollouts.entries()) {
    test(`rollout ${i} (${rollout.instance_id}): extracted_sql reproduces`, () => {
      expect(extractSql(rollout.model_output as string)).toBe(rollout.extracted_sql as string);
    });
  }
  // The real databases (~500 MB behind SPIDER2_LITE_URL); with them, GYM_SPIDER2_LITE_DIR = a spider2_lite_dir holding sqlite/.
  const realRoot = process.env.GYM_SPIDER2_LITE_DIR;
  const haveReal = !!realRoot && ["IPL", "Pagila", "California_Traffic_Collision"].every((db) => existsSync(join(realRoot, "sqlite", `${db}.sqlite`)));
  if (!haveReal) console.warn(`[spider2_lite] SKIPPED: published rewards need the real Spider 2.0-Lite databases (${SPIDER2_LITE_URL}); set GYM_SPIDER2_LITE_DIR to a spider2_lite_dir holding sqlite/IPL.sqlite, Pagila.sqlite, California_Traffic_Collision.sqlite.`);
  test.skipIf(!haveReal)("example_rollouts.jsonl: 5 of 5 rewards reproduce", async () => {
    const real = createSpider2Lite({ spider2_lite_dir: realRoot! });
    for (const rollout of rollouts) {
      const reply = await post(real, "/verify", { ...byInstance.get(rollout.instance_id)!, response: rollout.response });
      expect([reply.body.reward, reply.body.failure_reason]).toEqual([rollout.reward, rollout.failure_reason]);
    }
  });
  test("response keys follow the published rows (gold_result, ignore_order, condition_cols popped)", async () => {
    const rollout = rollouts[0]!;
    const task = { ...byInstance.get(rollout.instance_id)!, db_id: "tiny", metadata: null, agent_ref: { name: "spider2_lite_simple_agent" } };
    const reply = await post(app, "/verify", { ...task, response: rollout.response });
    const published = Object.keys(rollout).filter((k) => !k.startsWith("_ng_"));
    expect(Object.keys(reply.body).filter((k) => k !== "sql_error")).toEqual(published);
  });
});

import { afterAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlRunner } from "./sql-child.ts";

const work = mkdtempSync(join(tmpdir(), "gym-sqlchild-"));
const db = join(work, "t.sqlite");
spawnSync(process.execPath, ["-e", `const { Database } = require("bun:sqlite"); const d = new Database(${JSON.stringify(db)}); d.run("CREATE TABLE t(a INTEGER, b REAL, c TEXT, d BLOB)"); d.run("INSERT INTO t VALUES (9007199254740993, 2.0, 'x', x'00ff'), (NULL, 0.5, 'y', NULL)");`]);
afterAll(() => rmSync(work, { recursive: true, force: true }));
const endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
const dead = (pid: number) => !existsSync(`/proc/${pid}`) || /^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));

describe("SQL child runner", () => {
  test("values come back with Python's types: int (bigint, exact), float, str, bytes, None", async () => {
    const runner = openSqlRunner({ children: 1 });
    const result = await runner.query({ database: db, sql: "SELECT * FROM t ORDER BY rowid", timeoutMs: 5000, maxRows: 10 });
    expect(result).toEqual({ ok: true, rows: [[9007199254740993n, 2, "x", new Uint8Array([0, 255])], [null, 0.5, "y", null]] });
    runner.close();
  });
  test("a child killed from outside gives a 'crashed' result, and the next query gets a new child", async () => {
    const runner = openSqlRunner({ children: 1 });
    const running = runner.query({ database: db, sql: endless, timeoutMs: 60_000, maxRows: 10 });
    await Bun.sleep(300);
    const child = Number(spawnSync("pgrep", ["-P", String(process.pid), "-n"], { encoding: "utf8" }).stdout.trim());
    process.kill(child, "SIGKILL");
    expect(await running).toMatchObject({ ok: false, kind: "crashed" });
    expect(await runner.query({ database: db, sql: "SELECT 1", timeoutMs: 5000, maxRows: 10 })).toEqual({ ok: true, rows: [[1n]] });
    runner.close();
  });
  test("a child stuck in a query dies when its parent is killed", async () => {
    const script = join(work, "parent.ts");
    writeFileSync(script, `import { openSqlRunner } from ${JSON.stringify(join(import.meta.dir, "sql-child.ts"))};\nopenSqlRunner({ children: 1 }).query({ database: ${JSON.stringify(db)}, sql: ${JSON.stringify(endless)}, timeoutMs: 600000, maxRows: 10 });\nsetInterval(() => {}, 1000);\n`);
    const parent = Bun.spawn([process.execPath, script], { stdout: "ignore", stderr: "ignore" });
    let child = 0;
    for (let i = 0; i < 100 && !child; i++) {
      await Bun.sleep(100);
      child = Number(spawnSync("pgrep", ["-P", String(parent.pid)], { encoding: "utf8" }).stdout.trim().split("\n")[0] || 0);
    }
    expect(child).toBeGreaterThan(0);
    await Bun.sleep(500); // the query is under way
    parent.kill("SIGKILL");
    let gone = false;
    for (let i = 0; i < 100 && !gone; i++) {
      await Bun.sleep(100);
      gone = dead(child);
    }
    expect(gone).toBe(true);
  }, 30_000);
});

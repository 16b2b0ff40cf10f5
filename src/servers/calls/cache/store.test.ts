import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../../../runtime/sqlite.ts";
import { ResponseStore } from "./store.ts";

const dir = mkdtempSync(join(tmpdir(), "gym-response-store-"));
const opened: ResponseStore[] = [];
async function open(path: string, warnings: string[] = []) {
  const store = await ResponseStore.open(path, (m) => warnings.push(m));
  if (store) opened.push(store);
  return store;
}
const entry = (key: string, createdAt: number, expiresAt: number, body = `{"id":"${key}"}`) => ({ key, model: "m", baseUrl: "http://h/v1", path: "/v1/responses", account: "", createdAt, expiresAt, body });

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

describe("ResponseStore", () => {
  test("keeps bodies byte for byte; an expired entry or one older than the current expiry is not served", async () => {
    const store = (await open(join(dir, "expiry.sqlite")))!;
    const now = 1_000_000;
    store.put(entry("a", now, now + 1000, '{"x": 1.0,  "y":"é"}'));
    expect(store.get("a", now + 10, 5000)).toBe('{"x": 1.0,  "y":"é"}');
    expect(store.get("a", now + 1000, 5000)).toBeUndefined(); // expired
    expect(store.get("a", now + 10, 5)).toBeUndefined(); // a later run asks for younger answers
    store.put(entry("b", now, now + 10));
    expect(store.prune(now + 500)).toBe(1);
    expect(store.prune(now + 500, 100)).toBe(1);
    expect(store.summary(now)).toEqual([]);
  });

  test("summary, clear by model, clear all", async () => {
    const store = (await open(join(dir, "summary.sqlite")))!;
    store.put(entry("a", 1, 10 ** 15));
    store.put({ ...entry("b", 2, 10 ** 15), model: "judge" });
    store.put({ ...entry("c", 3, 10 ** 15), model: "judge" });
    expect(store.summary().map((s) => [s.model, s.entries])).toEqual([["judge", 2], ["m", 1]]);
    expect(store.clear("judge")).toBe(2);
    expect(store.clear()).toBe(1);
  });

  test("several processes (Bun and Deno) write one store at once (WAL): nothing lost, no error", async () => {
    const path = join(dir, "concurrent.sqlite");
    (await open(path))!.put(entry("seed", 1, 10 ** 15));
    const script = join(dir, "writer.ts");
    writeFileSync(script, `import { ResponseStore } from ${JSON.stringify(join(import.meta.dir, "store.ts"))};
const [path, who] = process.argv.slice(2);
const store = await ResponseStore.open(path, (m) => { console.error(m); process.exit(3); });
for (let i = 0; i < 300; i++) store.put({ key: who + "-" + i, model: "m", baseUrl: "b", path: "/p", account: "", createdAt: 1, expiresAt: 1e15, body: "{}" });
store.close();`);
    // Three Bun processes and one Deno process (node:sqlite) on the same file.
    const deno = join(import.meta.dir, "..", "..", "..", "..", "node_modules", ".bin", "deno");
    const commands = [0, 1, 2].map((who) => [process.execPath, script, path, `w${who}`]);
    commands.push([deno, "run", "-A", script, path, "deno"]);
    const procs = commands.map((cmd) => Bun.spawn(cmd, { stderr: "pipe" }));
    const codes = await Promise.all(procs.map((p) => p.exited));
    expect(codes).toEqual([0, 0, 0, 0]);
    const store = (await open(path))!;
    expect(store.summary().reduce((sum, s) => sum + s.entries, 0)).toBe(1 + 4 * 300);
    expect(store.get("deno-299", 2, 10 ** 16)).toBe("{}");
  }, 60_000);

  test("a corrupt database degrades to no cache with one warning", async () => {
    const path = join(dir, "corrupt.sqlite");
    writeFileSync(path, "this is not a database".repeat(100));
    const warnings: string[] = [];
    expect(await open(path, warnings)).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("continuing without a cache");
    expect(readFileSync(path, "utf8")).toStartWith("this is not a database");
  });

  test("a database locked by another process for longer than the busy timeout stops being used, with one warning", async () => {
    const path = join(dir, "locked.sqlite");
    const warnings: string[] = [];
    const store = (await ResponseStore.open(path, (m) => warnings.push(m), { busyTimeoutMs: 50 }))!;
    opened.push(store);
    const other = await openSqlite(path);
    other.exec("BEGIN EXCLUSIVE");
    store.put(entry("a", 1, 10 ** 15));
    store.flush();
    other.exec("ROLLBACK");
    other.close();
    expect(store.get("a", 2, 10)).toBeUndefined();
    store.put(entry("b", 1, 10 ** 15));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("continuing without a cache for the rest of this run");
  });
});

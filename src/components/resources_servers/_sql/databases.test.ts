import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:http";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { post, readJsonlFile } from "../_common/testing.ts";
import createBirdSql, { birdSource } from "../bird_sql/index.ts";
import createSpider2Lite from "../spider2_lite/index.ts";
import { databaseRoot, ensureDatabases } from "./databases.ts";
import { makeZip } from "../../../testing/make-zip.ts";

const sample = readFileSync(join(import.meta.dir, "..", "bird_sql", "_fixtures", "sample.sqlite"));
const tiny = readFileSync(join(import.meta.dir, "..", "spider2_lite", "_fixtures", "tiny.sqlite"));
// BIRD's layout: dev.zip ⊃ dev_20240627/{dev.json, dev_databases.zip ⊃ dev_databases/<db>/<db>.sqlite}.
const inner = makeZip([{ name: "dev_databases/california_schools/california_schools.sqlite", data: sample, deflate: true }, { name: "__MACOSX/dev_databases/._x", data: Buffer.from("junk") }]);
const birdZip = makeZip([{ name: "dev_20240627/dev.json", data: Buffer.from("[]") }, { name: "dev_20240627/dev_databases.zip", data: inner }]);
const spiderZip = makeZip([{ name: "spider2-localdb/tiny.sqlite", data: tiny, deflate: true }, { name: "spider2-localdb/README.md", data: Buffer.from("x") }]);

let server: Server;
let base = "";
const hits: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url!);
    const body = req.url === "/dev.zip" ? birdZip : req.url === "/spider.zip" ? spiderZip : req.url === "/html" ? Buffer.from("<html>quota exceeded</html>") : undefined;
    if (!body) return void res.writeHead(404).end("not found");
    res.writeHead(200, { "content-length": String(body.length) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
const work = mkdtempSync(join(tmpdir(), "gym-sqldb-"));
afterAll(() => {
  server.close();
  rmSync(work, { recursive: true, force: true });
});

const quiet = () => {};
const task = readJsonlFile(join(import.meta.dir, "..", "bird_sql"), "data/example.jsonl")[0]!;
const answer = (text: string) => ({ id: "r", created_at: 1, model: "m", object: "response", parallel_tool_calls: true, tool_choice: "auto", tools: [], output: [{ id: "m1", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }] });

describe("SQL databases through the download layer", () => {
  test("bird_sql downloads dev.zip once, unpacks both archives, and verifies", async () => {
    const root = join(work, "bird");
    const app = createBirdSql({ bird_sql_dir: root, databases_url: `${base}/dev.zip` });
    const reply = await post(app, "/verify", { ...task, response: answer(`\`\`\`sql\n${task.gt_sql}\n\`\`\``) });
    expect([reply.status, reply.body.reward]).toEqual([200, 1]);
    expect(readdirSync(join(root, "dev_20240627", "dev_databases"))).toEqual(["california_schools"]);
    expect(existsSync(join(root, "dev_20240627", "dev_databases.zip"))).toBe(false);
    expect(readdirSync(root).filter((n) => n.startsWith(".unpack"))).toEqual([]);
    const again = createBirdSql({ bird_sql_dir: root, databases_url: `${base}/dev.zip` });
    await post(again, "/verify", { ...task, response: answer("```sql\nSELECT 1\n```") });
    expect(hits.filter((h) => h === "/dev.zip")).toHaveLength(1);
  });
  test("spider2_lite unpacks its .sqlite files flat into sqlite/", async () => {
    const root = join(work, "spider");
    const app = createSpider2Lite({ spider2_lite_dir: root, databases_url: `${base}/spider.zip` });
    const reply = await post(app, "/verify", { responses_create_params: { input: [] }, response: answer("```sql\nSELECT count(*) FROM player\n```"), db_id: "tiny", question: "Q", gold_sql: "SELECT 5" });
    expect([reply.status, reply.body.reward]).toEqual([200, 1]);
    expect(readdirSync(join(root, "sqlite"))).toEqual(["tiny.sqlite"]);
  });
  test("offline, a missing archive is refused with the URL and the prefetch hint; nothing is written", async () => {
    const root = join(work, "offline");
    await expect(ensureDatabases(root, birdSource(`${base}/dev.zip`), { GYM_OFFLINE: "1" }, quiet)).rejects.toThrow(/Offline \(GYM_OFFLINE is set\): bird_sql needs its databases in .*dev_20240627, which would be downloaded from .*dev\.zip/);
    expect(existsSync(root)).toBe(false);
  });
  test("a download that is not a zip (an HTML page) fails clearly and leaves no half-unpacked folder", async () => {
    const root = join(work, "html");
    await expect(ensureDatabases(root, birdSource(`${base}/html`), {}, quiet)).rejects.toThrow(/not a readable zip archive/);
    expect(existsSync(join(root, "dev_20240627"))).toBe(false);
    expect(readdirSync(root).filter((n) => n.startsWith(".unpack"))).toEqual([]);
  });
  test("a 404 is an error naming the URL; the next verify tries again", async () => {
    const app = createBirdSql({ bird_sql_dir: join(work, "missing"), databases_url: `${base}/nothing.zip` });
    for (let i = 0; i < 2; i++) {
      const res = await app.request("http://localhost/verify", { method: "POST", body: JSON.stringify({ ...task, response: answer("x") }) });
      expect(res.status).toBe(500);
    }
    expect(hits.filter((h) => h === "/nothing.zip").length).toBeGreaterThanOrEqual(2);
  });
  test("a relative folder is the working directory's when it exists there, else the cache's", () => {
    const here = mkdtempSync(join(tmpdir(), "gym-cwd-"));
    const cwd = process.cwd();
    try {
      process.chdir(here);
      expect(databaseRoot("resources_servers/bird_sql/.bird_sql", { NEMO_GYM_CACHE_DIR: "/cache" })).toBe("/cache/resources_servers/bird_sql/.bird_sql");
      mkdirSync(join(here, "resources_servers/bird_sql/.bird_sql"), { recursive: true });
      expect(databaseRoot("resources_servers/bird_sql/.bird_sql", { NEMO_GYM_CACHE_DIR: "/cache" })).toBe(join(process.cwd(), "resources_servers/bird_sql/.bird_sql"));
    } finally {
      process.chdir(cwd);
      rmSync(here, { recursive: true, force: true });
    }
  });
  test("a folder that exists but holds no databases is not overwritten", async () => {
    const root = join(work, "partial");
    mkdirSync(join(root, "dev_20240627"), { recursive: true });
    copyFileSync(join(import.meta.dir, "..", "bird_sql", "_fixtures", "sample.sqlite"), join(root, "dev_20240627", "keep.sqlite"));
    await expect(ensureDatabases(root, birdSource(`${base}/dev.zip`), {}, quiet)).rejects.toThrow(/exists but holds no SQLite databases/);
    expect(existsSync(join(root, "dev_20240627", "keep.sqlite"))).toBe(true);
  });
});

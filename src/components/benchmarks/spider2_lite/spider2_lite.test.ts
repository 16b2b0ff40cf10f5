// spider2_lite (benchmark): prepare from 127.0.0.1 copies of the Spider2 repository archive and the databases archive
// (through the download layer; cached), byte for byte what NeMo Gym's prepare writes for the same tree; then on the
// binary `gym eval prepare` + `gym eval run --benchmark spider2_lite` on the mock model, and `gym eval reverify
// --benchmark spider2_lite` of answers that are right, wrong and hostile.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:http";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { ensureBinary, gym } from "../../../testing/binary.ts";
import { makeZip } from "../../../testing/make-zip.ts";
import { parseValue } from "./python-csv.ts";
import { pyCsvRowsAnyNewline as csvRows } from "../../resources_servers/_nlp/csv.ts";
import { prepare } from "./prepare.ts";

type Row = Record<string, any>;
const fixtures = join(import.meta.dir, "..", "..", "..", "..", "fixtures", "spider2_lite_prepare");
const tiny = readFileSync(join(import.meta.dir, "..", "..", "resources_servers", "spider2_lite", "_fixtures", "tiny.sqlite"));
const expected = readFileSync(join(fixtures, "expected.jsonl"), "utf8");

function tree(dir: string): { name: string; data: Uint8Array; deflate: boolean }[] {
  const out: { name: string; data: Uint8Array; deflate: boolean }[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push({ name: relative(fixtures, full), data: readFileSync(full), deflate: true });
    }
  };
  walk(dir);
  return out;
}
const repoZip = makeZip(tree(join(fixtures, "Spider2-main")));
const dbZip = makeZip([{ name: "spider2-localdb/Tiny-Cricket.sqlite", data: tiny, deflate: true }, { name: "spider2-localdb/Other.sqlite", data: tiny }, { name: "__MACOSX/spider2-localdb/._Other.sqlite", data: new Uint8Array(3) }]);
const hits: string[] = [];
let http: Server;
let base = "";
const work = mkdtempSync(join(tmpdir(), "gym-spider2-bench-"));
const lines = (path: string) => readFileSync(path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Row);

beforeAll(async () => {
  http = createServer((req, res) => {
    hits.push(req.url ?? "");
    const body = req.url === "/Spider2-main.zip" ? repoZip : req.url === "/dbs.zip" ? dbZip : undefined;
    if (!body) return void res.writeHead(404).end("not found");
    res.writeHead(200, { "content-length": String(body.length) }).end(body);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  await ensureBinary();
}, 120_000);
afterAll(() => {
  http.close();
  rmSync(work, { recursive: true, force: true });
});

const args = (dir: string) => ({ spider2_lite_dir: dir, spider2_repo_url: `${base}/Spider2-main.zip`, databases_url: `${base}/dbs.zip` });

describe("spider2_lite prepare", () => {
  test("the local tasks, ordered by number, byte for byte NeMo Gym's validation rows; the archives are downloaded once", async () => {
    const root = join(work, "root");
    const outputPath = join(work, "spider2_lite_benchmark.jsonl");
    const logs: string[] = [];
    const ctx = { outputPath, args: args(root), download: async () => "", writeRows: async () => {}, log: (l: string) => logs.push(l) };
    expect(await prepare(ctx)).toBe(outputPath);
    expect(readFileSync(outputPath, "utf8")).toBe(expected);
    expect(logs.at(-1)).toBe(`Wrote 3 validation tasks to ${outputPath}`);
    // Only the files the prepare reads are unpacked; the databases are flat in sqlite/, macOS forks skipped.
    expect(existsSync(join(root, "Spider2/spider2-lite/resource/databases/bigquery"))).toBe(false);
    expect(existsSync(join(root, "Spider2/README.md"))).toBe(false);
    expect(readdirSync(join(root, "sqlite")).sort()).toEqual(["Other.sqlite", "Tiny-Cricket.sqlite"]);
    const before = hits.length;
    await prepare({ ...ctx, outputPath: join(work, "again.jsonl") });
    expect(hits.length).toBe(before);
    expect(readFileSync(join(work, "again.jsonl"), "utf8")).toBe(expected);
  });
  test("Python's csv.reader rows and parse_value", () => {
    expect(csvRows('a,b\r\n"x, y",\n\n"q""q"z\n')).toEqual([["a", "b"], ["x, y", ""], [], ['q"qz']]);
    expect(["7", " -3 ", "1_0", "2.50", "1e3", "abc", "", "1__0", "."].map((s) => JSON.stringify(parseValue(s)))).toEqual(["7", "-3", "10", "2.5", "1000", '"abc"', '""', '"1__0"', '"."']);
  });
  test("an archive without spider2-lite.jsonl is refused naming it; nothing is left half-unpacked", async () => {
    const root = join(work, "bad");
    const bad = makeZip([{ name: "Spider2-main/README.md", data: Buffer.from("x") }]);
    writeFileSync(join(work, "Spider2-bad.zip"), bad);
    const { mkdirSync, copyFileSync } = await import("node:fs");
    mkdirSync(root, { recursive: true });
    copyFileSync(join(work, "Spider2-bad.zip"), join(root, "Spider2-main.zip"));
    const ctx = { outputPath: join(work, "bad.jsonl"), args: args(root), download: async () => "", writeRows: async () => {}, log: () => {} };
    await expect(prepare(ctx)).rejects.toThrow("holds no <top>/spider2-lite/spider2-lite.jsonl");
    expect(existsSync(join(root, "Spider2"))).toBe(false);
    expect(existsSync(ctx.outputPath)).toBe(false);
  });
});

describe("spider2_lite on the binary", () => {
  test("offline, prepare refuses the first download (the databases), naming its URL", async () => {
    const cwd = mkdtempSync(join(work, "offline-"));
    const r = await gym(["eval", "prepare", "--benchmark", "spider2_lite", `+prepare_script_args={spider2_repo_url: "${base}/Spider2-main.zip", databases_url: "${base}/dbs.zip"}`], { cwd, env: { GYM_OFFLINE: "1", NEMO_GYM_CACHE_DIR: join(cwd, "cache") } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${base}/dbs.zip`);
  });

  test("gym eval prepare, eval run on the mock model (no SQL: 0), reverify of a right, a wrong and a hostile answer", async () => {
    const cwd = mkdtempSync(join(work, "run-"));
    const env = { NEMO_GYM_CACHE_DIR: join(cwd, "cache") };
    const prepared = await gym(["eval", "prepare", "--benchmark", "spider2_lite", `+prepare_script_args={spider2_repo_url: "${base}/Spider2-main.zip", databases_url: "${base}/dbs.zip"}`], { cwd, env });
    expect(prepared.stderr).not.toContain("Error");
    expect(prepared.code).toBe(0);
    expect(readFileSync(join(cwd, "benchmarks/spider2_lite/data/spider2_lite_benchmark.jsonl"), "utf8")).toBe(expected);
    expect(existsSync(join(cwd, "cache/resources_servers/spider2_lite/.spider2_lite/sqlite/Tiny-Cricket.sqlite"))).toBe(true);

    // local010's gold holds NaN/Infinity, as NeMo Gym writes them; gym's materializer reads strict JSON (README), so
    // the run takes the two other rows.
    const strict = expected.split("\n").filter((l) => l && !l.includes("NaN")).join("\n") + "\n";
    writeFileSync(join(cwd, "strict.jsonl"), strict);
    const refused = await gym(["eval", "run", "--benchmark", "spider2_lite", "--model-type", "mock_model", "-o", "r/refused.jsonl"], { cwd, env: { ...env, GYM_OFFLINE: "1" } });
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining("spider2_lite_benchmark.jsonl:3:")]);
    const run = await gym(["eval", "run", "--benchmark", "spider2_lite", "--model-type", "mock_model", "--input", "strict.jsonl", "--num-repeats", "1", "-o", "r/spider.jsonl"], { cwd, env: { ...env, GYM_OFFLINE: "1" } });
    expect(run.stderr).not.toContain("Error");
    expect(run.code).toBe(0);
    const rows = lines(join(cwd, "r/spider.jsonl"));
    expect(rows.map((r) => r.instance_id).sort()).toEqual(["local002", "local003"]);
    for (const r of rows) expect([r.reward, r.agent_ref.name]).toEqual([0, "spider2_lite_benchmark_simple_agent"]);

    // Three answers to local002 re-scored: its gold SQL, a wrong query, and a write.
    const task = JSON.parse(strict.split("\n")[0]!) as Row;
    const answer = (text: string) => ({ id: "resp", created_at: 0, model: "m", object: "response", parallel_tool_calls: true, tool_choice: "auto", tools: [], output: [{ id: "msg", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }] });
    const texts = ["```sql\nSELECT player_name FROM player WHERE runs > 50\n```", "```sql\nSELECT team FROM player\n```", "```sql\nDELETE FROM player\n```"];
    const agent = { name: "spider2_lite_benchmark_simple_agent" };
    writeFileSync(join(cwd, "in.jsonl"), texts.map((_, i) => JSON.stringify({ ...task, _ng_task_index: i, _ng_rollout_index: 0, agent_ref: agent })).join("\n") + "\n");
    writeFileSync(join(cwd, "ro.jsonl"), texts.map((t, i) => JSON.stringify({ ...task, _ng_task_index: i, _ng_rollout_index: 0, agent_ref: agent, reward: 0, response: answer(t) })).join("\n") + "\n");
    const db = join(cwd, "cache/resources_servers/spider2_lite/.spider2_lite/sqlite/Tiny-Cricket.sqlite");
    const bytes = readFileSync(db);
    const r = await gym(["eval", "reverify", "--force", "--benchmark", "spider2_lite", "--inputs", "in.jsonl", "--rollouts", "ro.jsonl", "-o", "re.jsonl"], { cwd, env: { ...env, GYM_OFFLINE: "1" } });
    expect({ code: r.code, stderr: r.code === 0 ? "" : r.stderr }).toEqual({ code: 0, stderr: "" });
    const out = new Map(lines(join(cwd, existsSync(join(cwd, "re.jsonl")) ? "re.jsonl" : "unsafe_re.jsonl")).map((row) => [row._ng_task_index, row]));
    // As in NeMo Gym a mismatch is also `execution_error`; the refused write says why in `sql_error`.
    expect([0, 1, 2].map((i) => [out.get(i)!.reward, out.get(i)!.failure_reason, typeof out.get(i)!.sql_error])).toEqual([[1, "none", "undefined"], [0, "execution_error", "undefined"], [0, "execution_error", "string"]]);
    expect(Buffer.compare(readFileSync(db), bytes)).toBe(0);
  }, 180_000);
});

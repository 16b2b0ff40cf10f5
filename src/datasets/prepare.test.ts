import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { componentRoots } from "../config/roots.ts";
import { serve, type ServedApp } from "../runtime/serve.ts";
import { buildPlan, rowDigest } from "./plan.ts";
import { prepareBenchmarks, type BenchmarkDataset } from "./prepare.ts";

// A small copy of GPQA's source format: a CSV with quoted fields, doubled quotes and a newline inside a field.
const CSV = [
  `Record ID,Question,Correct Answer,Incorrect Answer 1,Incorrect Answer 2,Incorrect Answer 3`,
  `rec1,"Which gas is ""noble""?",Neon,Nitrogen,Oxygen,Hydrogen`,
  `rec2,"Two lines:\nwhich is prime?",7,8,9,10`,
  ``,
].join("\r\n");

let server: ServedApp;
const requests: { path: string; auth: string | null; method?: string }[] = [];

beforeAll(async () => {
  const app = new Hono();
  // As the Hub does: every answer names the commit it served, and an ETag for the file.
  app.use(async (c, next) => { await next(); c.header("x-repo-commit", "0123456789abcdef0123456789abcdef01234567"); c.header("etag", `"${c.req.path.length}-${c.req.path.replace(/\W/g, "")}"`); });
  app.get("/datasets/Idavidrein/gpqa/resolve/:rev/gpqa_diamond.csv", (c) => {
    requests.push({ path: c.req.path, auth: c.req.header("authorization") ?? null, method: c.req.method });
    return c.req.header("authorization") === "Bearer hf_test" ? c.text(CSV) : c.text("gated", 401);
  });
  server = await serve(app.fetch, { host: "127.0.0.1", port: 0 });
});
afterAll(() => server.stop());

function dataset(name: string, script: string): BenchmarkDataset {
  const jsonlPath = `benchmarks/${name}/data/${name}_benchmark.jsonl`;
  return { agent: `${name}_agent`, name, jsonlPath, prepareScript: script, numRepeats: 1, entry: { name, type: "benchmark", jsonl_fpath: jsonlPath, prepare_script: script } };
}

describe("eval prepare", () => {
  test("gpqa downloads through HF_ENDPOINT with HF_TOKEN, caches, and writes four-option rows", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "prepare-"));
    const env = { HF_ENDPOINT: server.url, HF_TOKEN: "hf_test", NEMO_GYM_CACHE_DIR: join(cwd, "cache") };
    const roots = componentRoots({ cwd, env });
    const d = dataset("gpqa", "benchmarks/gpqa/prepare.ts");
    const { prepared } = await prepareBenchmarks([d], { roots, cwd, env });
    expect(prepared).toEqual([join(cwd, d.jsonlPath)]);
    const rows = readFileSync(prepared[0]!, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rows.map((r) => r.task_id)).toEqual(["rec1", "rec2"]);
    expect(rows[0].question).toBe('Which gas is "noble"?');
    expect(rows[1].question).toBe("Two lines:\nwhich is prime?");
    for (const r of rows) {
      expect(r.options.map((o: object) => Object.keys(o)[0])).toEqual(["A", "B", "C", "D"]);
      const correct = r.options.find((o: Record<string, string>) => Object.keys(o)[0] === r.expected_answer);
      expect(Object.values(correct)[0]).toBe(r.task_id === "rec1" ? "Neon" : "7");
    }
    // The second run asks the Hub whether `main` moved (one HEAD) and reads the unchanged file from the cache.
    const before = requests.length;
    await prepareBenchmarks([d], { roots, cwd, env });
    expect(requests.slice(before).map((r) => r.method)).toEqual(["HEAD"]);
  });

  test("a gated download without a token says to set HF_TOKEN; an unreachable endpoint says offline", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "prepare-"));
    const d = dataset("gpqa", "benchmarks/gpqa/prepare.ts");
    const roots = componentRoots({ cwd, env: {} });
    await expect(prepareBenchmarks([d], { roots, cwd, env: { HF_ENDPOINT: server.url, NEMO_GYM_CACHE_DIR: join(cwd, "c") } })).rejects.toThrow("HTTP 401");
    await expect(prepareBenchmarks([d], { roots, cwd, env: { HF_ENDPOINT: "http://127.0.0.1:9", NEMO_GYM_CACHE_DIR: join(cwd, "c") } })).rejects.toThrow("are you offline?");
  });

  test("every bad prepare script is reported together and nothing runs", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "prepare-"));
    const roots = componentRoots({ cwd, env: {} });
    const run = prepareBenchmarks([dataset("a", "benchmarks/a/prepare.py"), dataset("b", "benchmarks/b/prepare.ts"), dataset("arithmetic", "benchmarks/arithmetic/prepare.ts")], { roots, cwd });
    await expect(run).rejects.toThrow(/prepare\.py: Python prepare scripts[\s\S]*benchmarks\/b\/prepare\.ts: prepare script not found/);
  });
});

describe("eval plan", () => {
  test("the same benchmark gives byte-identical plans; editing one row changes exactly one digest", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "plan-"));
    const roots = componentRoots({ cwd, env: {} });
    const d = dataset("arithmetic", "benchmarks/arithmetic/prepare.ts");
    const [path] = (await prepareBenchmarks([d], { roots, cwd, args: { num_problems: 12, seed: 5 } })).prepared;
    const first = JSON.stringify(await buildPlan("arithmetic", d, path!));
    const second = JSON.stringify(await buildPlan("arithmetic", d, path!));
    expect(second).toBe(first);

    const rows = readFileSync(path!, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    rows.reverse(); // order does not matter: tasks are sorted by id
    rows[3].question = `${rows[3].question} `;
    rows[5].agent_ref = { type: "responses_api_agents", name: "x" }; // routing fields are not digested
    rows[6]._ng_task_index = 7;
    writeFileSync(path!, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const before = JSON.parse(first).tasks as { id: string; digest: string }[];
    const after = (await buildPlan("arithmetic", d, path!)).tasks;
    expect(after.map((t) => t.id)).toEqual(before.map((t) => t.id));
    const changed = after.filter((t, i) => t.digest !== before[i]!.digest).map((t) => t.id);
    expect(changed).toEqual([rows[3].task_id]);
  });

  test("rows without task_id / problem_id / instance_id are refused; --task-ids filters", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "plan-"));
    const file = join(cwd, "b.jsonl");
    writeFileSync(file, `{"problem_id": "p2", "q": 1}\n{"instance_id": "i1", "q": 2}\n`);
    const d = dataset("b", "x");
    const plan = await buildPlan("b", { ...d, entry: { ...d.entry, taskset: "bset" } }, file, ["p2"]);
    expect(plan.tasks).toEqual([{ id: "p2", taskset: "bset", digest: rowDigest({ problem_id: "p2", q: 1 }) }]);
    writeFileSync(file, `{"q": 1}\n`);
    await expect(buildPlan("b", d, file)).rejects.toThrow("b.jsonl:1: the row has no task_id, problem_id, instance_id field");
  });

  test("digests ignore key order", () => {
    expect(rowDigest({ a: 1, b: { c: 2, d: 3 } })).toBe(rowDigest({ b: { d: 3, c: 2 }, a: 1 }));
  });
});

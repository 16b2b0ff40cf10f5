/** The iheval benchmark's prepare against a 127.0.0.1 stand-in of GitHub's archive URL (fixtures/iheval), and the benchmark on the binary. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../../../testing/binary.ts";
import type { PrepareContext } from "../_prepare.ts";
import { prepare } from "./prepare.ts";

const fixtures = join(import.meta.dir, "..", "..", "..", "..", "fixtures", "iheval");
const archive = readFileSync(join(fixtures, "IHEval-main.zip"));
let dir: string;
let files: ReturnType<typeof Bun.serve>;
let requests = 0;
const saved = { ...process.env };
const ctx = (name: string, args: Record<string, unknown> = {}): PrepareContext => ({ outputPath: join(dir, `${name}.jsonl`), args, download: async () => "", writeRows: async () => {}, log: () => {} });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gym-iheval-bench-"));
  files = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      requests++;
      return new URL(req.url).pathname === "/ytyz1307zzh/IHEval/archive/refs/heads/main.zip" ? new Response(archive) : new Response("404", { status: 404 });
    },
  });
  process.env.NEMO_GYM_CACHE_DIR = join(dir, "cache");
  for (const k of ["HF_HUB_OFFLINE", "GYM_OFFLINE"]) delete process.env[k];
});
afterAll(() => {
  process.env = saved;
  files.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

const url = () => `${files.url.origin}/ytyz1307zzh/IHEval/archive/refs/heads/main.zip`;

describe("iheval benchmark: prepare", () => {
  test("writes NeMo Gym's rows byte for byte (its prepare_iheval.py + prepare.py run on the same archive: scripts/iheval-prepare-golden.py)", async () => {
    const c = ctx("iheval", { url: url() });
    expect(await prepare(c)).toBe(c.outputPath);
    const text = readFileSync(c.outputPath, "utf8");
    expect(text).toBe(readFileSync(join(fixtures, "expected.jsonl"), "utf8"));
    const rows = text.trim().split("\n").map((l) => JSON.parse(l));
    expect(new Set(rows.map((r) => r.task)).size).toBe(9);
    // The tool rows carry the pre-canned call and its result as Responses items, and the tool flat.
    const tool = rows.find((r) => r.task === "get-webpage")!;
    expect(tool.responses_create_params.input.map((i: any) => i.type ?? i.role)).toEqual(expect.arrayContaining(["function_call", "function_call_output"]));
    expect(tool.responses_create_params.tools[0]).toMatchObject({ type: "function", strict: null });
    // The archive is cached: a second prepare downloads nothing.
    const before = requests;
    await prepare(ctx("again", { url: url() }));
    expect(requests).toBe(before);
  });
  test("offline with an empty cache: refused with the URL and nothing written; a 404 names the file", async () => {
    process.env.GYM_OFFLINE = "1";
    process.env.NEMO_GYM_CACHE_DIR = join(dir, "empty-cache");
    try {
      const error = await prepare(ctx("offline", { url: url() })).then(() => null, (e: Error) => e);
      expect(error?.message).toContain("IHEval/archive/refs/heads/main.zip");
    } finally {
      delete process.env.GYM_OFFLINE;
    }
    expect(existsSync(join(dir, "offline.jsonl"))).toBe(false);
    const missing = await prepare(ctx("missing", { url: `${files.url.origin}/nowhere.zip` })).then(() => null, (e: Error) => e);
    expect(missing?.message).toContain("IHEval-main.zip");
    process.env.NEMO_GYM_CACHE_DIR = join(dir, "cache");
  });
});

describe("iheval benchmark on the binary", () => {
  test("listed; eval prepare then eval run --benchmark iheval against mock_model scores every row with IHEval's metrics", async () => {
    const list = await gym(["list", "benchmarks", "--json"]);
    expect(JSON.parse(list.stdout).map((e: { name: string }) => e.name)).toContain("iheval");
    const env = { NEMO_GYM_CACHE_DIR: join(dir, "cache-binary") };
    const prepared = await gym(["eval", "prepare", "--benchmark", "iheval", `+prepare_script_args={url: ${url()}}`], { cwd: dir, env });
    expect(prepared.stderr).not.toContain("Error");
    expect(prepared.code).toBe(0);
    const ran = await gym(["eval", "run", "--benchmark", "iheval", "--model-type", "mock_model", "-o", "runs/iheval.jsonl"], { cwd: dir, env });
    expect(ran.stderr).toContain("Coverage: 36 of 36 rollouts scored (36 succeeded)");
    expect(ran.code).toBe(0);
    const metrics = JSON.parse(readFileSync(join(dir, "runs", "iheval_aggregate_metrics.json"), "utf8"));
    expect(Object.keys(metrics[0].key_metrics)).toEqual(expect.arrayContaining(["result_score", "conflict_score", "aligned_score", "mean_reward"]));
    expect(metrics[0].agent_ref.name).toBe("iheval_benchmark_simple_agent");
  }, 240_000);
});

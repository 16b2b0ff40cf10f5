/**
 * proof-arena-judge against the 127.0.0.1 Hub stand-in with real Parquet: the pinned MathArena outputs found by the
 * tree listing at their revisions (split over two data files, renamed on main since), imo_2025 from the Parquet
 * conversion, OpenAI's proofs from a GitHub-raw stand-in; the lines equal, byte for byte, what NeMo Gym's own
 * prepare.py writes for the same rows (fixtures/proof_arena_prepare, made by scripts/proof-arena-prepare-golden.py).
 * Then offline from the cache, and `gym eval prepare` / `eval run --benchmark proof-arena-judge` on the binary.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../../../testing/binary.ts";
import { type HubServer, startHubServer } from "../../../testing/hub-server.ts";
import { parquetBytes } from "../../../testing/parquet.ts";
import type { PrepareContext } from "../_prepare.ts";
import { OUTPUTS, prepare, splitDataFiles } from "./prepare.ts";

type Row = Record<string, unknown>;
const root = join(import.meta.dir, "..", "..", "..", "..", "fixtures");
const fixtures = join(root, "proof_arena_prepare");
const inputs = JSON.parse(readFileSync(join(fixtures, "inputs.json"), "utf8")) as Record<string, Row[]>;
const expected = readFileSync(join(fixtures, "expected.jsonl"), "utf8");
const saved = { ...process.env };
let dir: string;
let hub: HubServer;
let raw: ReturnType<typeof Bun.serve>;
const proofsUrl = () => `${raw.url.origin}/aw31/openai-imo-2025-proofs`;

const parquet = (rows: Row[]) => parquetBytes(rows, { json: [...new Set(rows.flatMap((r) => Object.keys(r).filter((k) => r[k] !== null && typeof r[k] === "object")))] });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "gym-proof-arena-"));
  hub = await startHubServer();
  process.env.HF_ENDPOINT = hub.url;
  process.env.NEMO_GYM_CACHE_DIR = join(dir, "cache");
  for (const k of ["HF_HUB_OFFLINE", "GYM_OFFLINE", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"]) delete process.env[k];
  for (const name of ["tokenizer.json", "tokenizer_config.json"]) hub.addFile("Qwen/Qwen3-0.6B", name, readFileSync(join(root, "qa_prepare", `qwen3-like-${name}`)), { repoType: "model" });
  hub.addFile("MathArena/imo_2025", "default/train/0000.parquet", parquet(inputs["MathArena/imo_2025"]!), { revision: "refs/convert/parquet" });
  for (const { repoId, revision } of Object.values(OUTPUTS)) {
    const rows = inputs[`${repoId}@${revision}`]!;
    // The pinned revision (a branch of that name here; a commit on the Hub) holds the rows in two data files, beside
    // a README and a test split; main has since renamed them, so only the listing at the pin names these files.
    hub.addFile(repoId, "README.md", "---\nlicense: cc-by-nc-sa-4.0\n---\n", { revision });
    hub.addFile(repoId, "data/train-00000-of-00002.parquet", parquet(rows.slice(0, -1)), { revision });
    hub.addFile(repoId, "data/train-00001-of-00002.parquet", parquet(rows.slice(-1)), { revision });
    hub.addFile(repoId, "data/test-00000-of-00001.parquet", parquet(rows.slice(0, 1)), { revision });
    hub.addFile(repoId, "data/train-00000-of-00001.parquet", parquet(rows.slice(0, 1)));
  }
  raw = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const m = /^\/aw31\/openai-imo-2025-proofs\/main\/problem_([1-5])\.txt$/.exec(new URL(req.url).pathname);
      return m ? new Response(readFileSync(join(fixtures, `openai_problem_${m[1]}.txt`))) : new Response("404", { status: 404 });
    },
  });
});
afterAll(async () => {
  process.env = saved;
  raw.stop(true);
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
});

const context = (name: string, args: Row = { openai_proofs_url: proofsUrl() }): PrepareContext => ({ outputPath: join(dir, `${name}.jsonl`), args, download: async () => "", writeRows: async () => {}, log: () => {} });

describe("proof-arena-judge: prepare writes NeMo Gym's lines", () => {
  test("the train split's data files, as `datasets` finds them without a config", () => {
    expect(splitDataFiles(["README.md", "data/test-00000-of-00001.parquet", "data/train-00001-of-00002.parquet", "data/train-00000-of-00002.parquet", "train.parquet", "restrain.parquet", "x/training/a.parquet"])).toEqual([
      "data/train-00000-of-00002.parquet", "data/train-00001-of-00002.parquet", "train.parquet", "x/training/a.parquet",
    ]);
  });

  test("pinned outputs through the tree listing, imo_2025, OpenAI's and Gemini's proofs; seed-42 shuffle, the Qwen3 filter, UTF-8 kept", async () => {
    const c = context("online");
    expect(await prepare(c)).toBe(c.outputPath);
    expect(readFileSync(c.outputPath, "utf8")).toBe(expected);
    const lists = hub.requests.filter((r) => r.path.includes("/tree/")).map((r) => decodeURIComponent(r.path.split("/tree/")[1]!.split("?")[0]!));
    expect(lists.sort()).toEqual(Object.values(OUTPUTS).map((o) => o.revision).sort());
  });

  test("offline, the same bytes from the cache (listings, data files, proofs); nothing cached is refused naming the listing", async () => {
    process.env.HF_HUB_OFFLINE = "1";
    try {
      const before = hub.requests.length;
      const c = context("offline");
      await prepare(c);
      expect(readFileSync(c.outputPath, "utf8")).toBe(expected);
      expect(hub.requests.length).toBe(before);
      process.env.NEMO_GYM_CACHE_DIR = join(dir, "empty-cache");
      const error = await prepare(context("refused")).catch((e) => e);
      expect(error.message).toContain("Offline (HF_HUB_OFFLINE is set)");
      expect(error.message).toContain("/tree/");
    } finally {
      delete process.env.HF_HUB_OFFLINE;
      process.env.NEMO_GYM_CACHE_DIR = join(dir, "cache");
    }
  });
});

describe("proof-arena-judge on the binary", () => {
  test("gym list benchmarks shows it; eval prepare then eval run --benchmark against mock_model scores every row", async () => {
    const env = { HF_ENDPOINT: hub.url, NEMO_GYM_CACHE_DIR: join(dir, "cache-binary") };
    const list = await gym(["list", "benchmarks", "--json"]);
    expect(JSON.parse(list.stdout).map((e: { name: string }) => e.name)).toContain("proof-arena-judge");
    const prepared = await gym(["eval", "prepare", "--benchmark", "proof-arena-judge", `+prepare_script_args={openai_proofs_url: "${proofsUrl()}"}`], { cwd: dir, env });
    expect({ code: prepared.code, stderr: prepared.code === 0 ? "" : prepared.stderr }).toEqual({ code: 0, stderr: "" });
    expect(prepared.stderr).toContain("unpinned branch main");
    expect(readFileSync(join(dir, "benchmarks", "proof-arena-judge", "data", "proof-arena-judge_benchmark.jsonl"), "utf8")).toBe(expected);
    const ran = await gym(["eval", "run", "--benchmark", "proof-arena-judge", "--model-type", "mock_model", "-o", "runs/pa.jsonl"], { cwd: dir, env });
    expect(ran.stderr).toContain("Coverage: 18 of 18 rollouts scored (18 succeeded)");
    expect(ran.code).toBe(0);
    const first = JSON.parse(readFileSync(join(dir, "runs", "pa.jsonl"), "utf8").split("\n")[0]!);
    expect(first.agent_ref.name).toBe("proof_arena_judge_math_proof_judgement_simple_agent");
  }, 240_000);
});

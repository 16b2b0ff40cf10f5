import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type HubServer, startHubServer } from "../../../testing/hub-server.ts";
import { parquetBytes } from "../../../testing/parquet.ts";
import { HF_REPO_ID, prepare } from "./prepare.ts";

const fixtures = join(import.meta.dir, "..", "..", "..", "..", "fixtures", "scicode");
let dir: string;
let hub: HubServer;
const saved = { ...process.env };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "gym-scicode-prepare-"));
  hub = await startHubServer();
  process.env.HF_ENDPOINT = hub.url;
  process.env.NEMO_GYM_CACHE_DIR = join(dir, "cache");
  for (const k of ["HF_HUB_OFFLINE", "GYM_OFFLINE", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"]) delete process.env[k];
  const rows = JSON.parse(readFileSync(join(fixtures, "scicode_rows.json"), "utf8"));
  hub.addFile(HF_REPO_ID, "default/test/0000.parquet", parquetBytes(rows, { json: ["sub_steps"] }), { revision: "refs/convert/parquet" });
});
afterAll(async () => {
  await hub?.close();
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

test("scicode: the test split becomes NeMo Gym's JSONL byte for byte (empty prompt, the whole sub_steps list, uuid = problem_id, ASCII escapes)", async () => {
  const outputPath = join(dir, "scicode_benchmark.jsonl");
  const logs: string[] = [];
  expect(await prepare({ outputPath, args: {}, download: async () => "", writeRows: async () => {}, log: (l) => logs.push(l) })).toBe(outputPath);
  expect(readFileSync(outputPath, "utf8")).toBe(readFileSync(join(fixtures, "scicode.jsonl"), "utf8"));
  expect(logs.at(-1)).toBe(`Wrote 2 problems to ${outputPath}`);
});

test("scicode: offline without a cached copy, prepare refuses naming the file; nothing is written", async () => {
  process.env.GYM_OFFLINE = "1";
  process.env.NEMO_GYM_CACHE_DIR = join(dir, "empty-cache");
  try {
    const outputPath = join(dir, "offline.jsonl");
    await expect(prepare({ outputPath, args: {}, download: async () => "", writeRows: async () => {}, log: () => {} })).rejects.toThrow("SciCode1/SciCode");
    expect(existsSync(outputPath)).toBe(false);
  } finally {
    delete process.env.GYM_OFFLINE;
    process.env.NEMO_GYM_CACHE_DIR = join(dir, "cache");
  }
});

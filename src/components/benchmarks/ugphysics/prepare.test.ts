import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type HubServer, startHubServer } from "../../../testing/hub-server.ts";
import { parquetBytes } from "../../../testing/parquet.ts";
import { HF_REPO_ID, prepare, SUBSETS } from "./prepare.ts";

const fixtures = join(import.meta.dir, "..", "..", "..", "..", "fixtures", "judge_prepare");
let dir: string;
let hub: HubServer;
const saved = { ...process.env };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "gym-ugphysics-prepare-"));
  hub = await startHubServer();
  process.env.HF_ENDPOINT = hub.url;
  process.env.NEMO_GYM_CACHE_DIR = join(dir, "cache");
  for (const k of ["HF_HUB_OFFLINE", "GYM_OFFLINE", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"]) delete process.env[k];
  const bySubset = JSON.parse(readFileSync(join(fixtures, "ugphysics_rows.json"), "utf8")) as Record<string, Record<string, unknown>[]>;
  // Every subject config has its `en` split (the fixture has rows for all 13).
  for (const subset of SUBSETS) hub.addFile(HF_REPO_ID, `${subset}/en/0000.parquet`, parquetBytes(bySubset[subset]!), { revision: "refs/convert/parquet" });
});
afterAll(async () => {
  await hub?.close();
  process.env = saved;
});

test("ugphysics: the 13 subjects' en splits become NeMo Gym's JSONL byte for byte (all 13 subject configs, prompt sentences, language lower-cased)", async () => {
  const outputPath = join(dir, "ugphysics_benchmark.jsonl");
  const ctx = { outputPath, args: {}, download: async () => "", writeRows: async () => {}, log: () => {} };
  expect(await prepare(ctx)).toBe(outputPath);
  expect(readFileSync(outputPath, "utf8")).toBe(readFileSync(join(fixtures, "ugphysics.jsonl"), "utf8"));
});

import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type HubServer, startHubServer } from "../../../testing/hub-server.ts";
import { parquetBytes } from "../../../testing/parquet.ts";
import { HF_REPO_ID, prepare } from "./prepare.ts";

const fixtures = join(import.meta.dir, "..", "..", "..", "..", "fixtures", "judge_prepare");
let dir: string;
let hub: HubServer;
const saved = { ...process.env };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "gym-omniscience-prepare-"));
  hub = await startHubServer();
  process.env.HF_ENDPOINT = hub.url;
  process.env.NEMO_GYM_CACHE_DIR = join(dir, "cache");
  for (const k of ["HF_HUB_OFFLINE", "GYM_OFFLINE", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"]) delete process.env[k];
  const rows = JSON.parse(readFileSync(join(fixtures, "omniscience_rows.json"), "utf8"));
  hub.addFile(HF_REPO_ID, "default/train/0000.parquet", parquetBytes(rows), { revision: "refs/convert/parquet" });
});
afterAll(async () => {
  await hub?.close();
  process.env = saved;
});

test("omniscience: the train split becomes NeMo Gym's JSONL byte for byte (id from question_id, UTF-8 kept)", async () => {
  const outputPath = join(dir, "omniscience_benchmark.jsonl");
  const ctx = { outputPath, args: {}, download: async () => "", writeRows: async () => {}, log: () => {} };
  expect(await prepare(ctx)).toBe(outputPath);
  expect(readFileSync(outputPath, "utf8")).toBe(readFileSync(join(fixtures, "omniscience.jsonl"), "utf8"));
});

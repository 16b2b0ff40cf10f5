import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type HubServer, startHubServer } from "../../../testing/hub-server.ts";
import { parquetBytes } from "../../../testing/parquet.ts";
import { DOCUMENTS, HF_REPO_ID, prepare, tokensBand } from "./prepare.ts";
import { readZipFiles } from "../../../download/zip.ts";

const fixtures = join(import.meta.dir, "..", "..", "..", "..", "fixtures", "judge_prepare");
let dir: string;
let hub: HubServer;
const saved = { ...process.env };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "gym-aalcr-prepare-"));
  hub = await startHubServer();
  process.env.HF_ENDPOINT = hub.url;
  process.env.NEMO_GYM_CACHE_DIR = join(dir, "cache");
  for (const k of ["HF_HUB_OFFLINE", "GYM_OFFLINE", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"]) delete process.env[k];
  hub.addFile(HF_REPO_ID, "default/test/0000.parquet", parquetBytes(JSON.parse(readFileSync(join(fixtures, "aalcr_rows.json"), "utf8"))), { revision: "refs/convert/parquet" });
  hub.addFile(HF_REPO_ID, DOCUMENTS, new Uint8Array(readFileSync(join(fixtures, "aalcr_documents.zip"))), { revision: "main" });
});
afterAll(async () => {
  await hub?.close();
  process.env = saved;
});

test("aalcr: rows and the documents archive become NeMo Gym's JSONL byte for byte (artifact file names, invalid UTF-8 dropped, bands)", async () => {
  const outputPath = join(dir, "aalcr_benchmark.jsonl");
  const ctx = { outputPath, args: {}, download: async () => "", writeRows: async () => {}, log: () => {} };
  expect(await prepare(ctx)).toBe(outputPath);
  expect(readFileSync(outputPath, "utf8")).toBe(readFileSync(join(fixtures, "aalcr.jsonl"), "utf8"));
  expect([79999, 80000, 109999, 127999, 128000].map(tokensBand)).toEqual(["<80k", "80k-100k", "100k-110k", "110k-128k", "128k+"]);
});

test("aalcr: bytes that are not a ZIP archive are a clear error, not a crash", () => {
  const notZip = join(dir, "not-a-zip.zip");
  writeFileSync(notZip, "<html>not a zip</html>");
  expect(() => readZipFiles(notZip)).toThrow(/not-a-zip\.zip is not a readable zip archive: no end-of-central-directory record/);
});

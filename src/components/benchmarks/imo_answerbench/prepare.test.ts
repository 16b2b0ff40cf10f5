import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import { prepare } from "./prepare.ts";

const fixtures = join(import.meta.dir, "..", "..", "..", "..", "fixtures", "judge_prepare");
let dir: string;
let source: ServedApp;
const saved = process.env.NEMO_GYM_CACHE_DIR;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "gym-imo-answerbench-"));
  process.env.NEMO_GYM_CACHE_DIR = join(dir, "cache");
  const csv = readFileSync(join(fixtures, "imo_answerbench.csv"));
  source = await serve(async () => new Response(csv, { headers: { "content-type": "text/csv" } }));
});
afterAll(async () => {
  await source?.stop();
  if (saved === undefined) delete process.env.NEMO_GYM_CACHE_DIR;
  else process.env.NEMO_GYM_CACHE_DIR = saved;
});

test("imo_answerbench: the CSV becomes NeMo Gym's JSONL byte for byte (quotes, commas, CRLF in a field, UTF-8)", async () => {
  const outputPath = join(dir, "imo_answerbench_benchmark.jsonl");
  const logs: string[] = [];
  const ctx = { outputPath, args: { source_url: `${source.url}/imobench/answerbench_v2.csv` }, download: async () => "", writeRows: async () => {}, log: (l: string) => logs.push(l) };
  expect(await prepare(ctx)).toBe(outputPath);
  expect(readFileSync(outputPath, "utf8")).toBe(readFileSync(join(fixtures, "imo_answerbench.jsonl"), "utf8"));
  expect(logs.at(-1)).toBe(`Wrote 2 problems to ${outputPath}`);
});

import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type HubServer, startHubServer } from "../testing/hub-server.ts";
import { parquetBytes } from "../testing/parquet.ts";
import { hfDownload } from "./hf/index.ts";
import { parquetRowCount, readParquetRows } from "./parquet.ts";

let dir: string;
let hub: HubServer;
const rows = Array.from({ length: 2500 }, (_, i) => ({
  question: `What is ${i} + ${i}?`,
  answer: String(2 * i),
  id: i,
  score: i / 4,
  ok: i % 2 === 0,
  meta: { source: "gen", tags: [i % 3] },
}));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "gym-pq-"));
  hub = await startHubServer();
});
afterAll(async () => {
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
});

for (const codec of ["SNAPPY", "GZIP", "UNCOMPRESSED"] as const) {
  test(`${codec} Parquet in several row groups reads back row for row, JSON-ready`, async () => {
    const path = join(dir, `${codec}.parquet`);
    writeFileSync(path, parquetBytes(rows, { codec, rowGroupSize: 1000, json: ["meta"] }));
    expect(await parquetRowCount(path)).toBe(2500);
    const back: Record<string, unknown>[] = [];
    for await (const row of readParquetRows(path)) back.push(row);
    expect(back).toEqual(rows);
    expect(JSON.stringify(back[7])).toBe(JSON.stringify(rows[7]));
  });
}

test("only the asked columns", async () => {
  const path = join(dir, "cols.parquet");
  writeFileSync(path, parquetBytes(rows.slice(0, 3)));
  const back: Record<string, unknown>[] = [];
  for await (const row of readParquetRows(path, { columns: ["answer"] })) back.push(row);
  expect(back).toEqual([{ answer: "0" }, { answer: "2" }, { answer: "4" }]);
});

test("a Hub dataset's Parquet file downloaded from the resolve endpoint (refs/convert/parquet) and read", async () => {
  hub.addFile("org/math", "default/train/0000.parquet", parquetBytes(rows), { revision: "refs/convert/parquet" });
  const env = { HF_ENDPOINT: hub.url, NEMO_GYM_CACHE_DIR: join(dir, "cache") };
  const path = await hfDownload({ repoId: "org/math", path: "default/train/0000.parquet", revision: "refs/convert/parquet" }, { env });
  expect(hub.requests.some((r) => r.path.includes("/resolve/refs%2Fconvert%2Fparquet/"))).toBe(true);
  let n = 0;
  for await (const row of readParquetRows(path)) if (row.id === n) n++;
  expect(n).toBe(2500);
});

test("a truncated file is named as unreadable, with the fix", async () => {
  const path = join(dir, "torn.parquet");
  writeFileSync(path, parquetBytes(rows).subarray(0, 500));
  const error = await (async () => {
    for await (const _ of readParquetRows(path));
  })().catch((e) => e);
  expect(error.message).toContain(path);
  expect(error.hint).toContain("download again");
});

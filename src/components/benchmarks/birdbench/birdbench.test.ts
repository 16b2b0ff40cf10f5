import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readJsonlFile } from "../../resources_servers/_common/testing.ts";
import { makeZip } from "../../../testing/make-zip.ts";
import type { PrepareContext } from "../_prepare.ts";
import { prepare } from "./prepare.ts";

const server = join(import.meta.dir, "..", "..", "resources_servers", "bird_sql");
const examples = readJsonlFile(server, "data/example.jsonl");
// A dev.zip laid out as BIRD's, holding the five example tasks and the fixture sample of california_schools.
const devJson = examples.map((e) => ({ question: e.question, SQL: e.gt_sql, db_id: e.db_id, difficulty: e.difficulty, evidence: "" }));
const inner = makeZip([{ name: "dev_databases/california_schools/california_schools.sqlite", data: readFileSync(join(server, "_fixtures", "sample.sqlite")), deflate: true }]);
const devZip = makeZip([{ name: "dev_20240627/dev.json", data: Buffer.from(JSON.stringify(devJson)) }, { name: "dev_20240627/dev_databases.zip", data: inner }]);

let http: Server;
let url = "";
beforeAll(async () => {
  http = createServer((_req, res) => void res.writeHead(200, { "content-length": String(devZip.length) }).end(devZip));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(http.address() as { port: number }).port}/dev.zip`;
});
const work = mkdtempSync(join(tmpdir(), "gym-birdbench-"));
afterAll(() => {
  http.close();
  rmSync(work, { recursive: true, force: true });
});

describe("birdbench prepare", () => {
  test("rows are NeMo Gym's example rows, sql_context (the iterdump schema dump) byte for byte", async () => {
    const written: Record<string, unknown>[] = [];
    const context: PrepareContext = {
      outputPath: join(work, "birdbench_benchmark.jsonl"),
      args: { bird_sql_dir: join(work, "bird"), databases_url: url },
      download: async () => "",
      writeRows: async (_path, rows) => void written.push(...rows),
      log: () => {},
    };
    expect(await prepare(context)).toBe(context.outputPath);
    expect(written).toEqual(examples.map(({ responses_create_params, ...row }) => row));
  });
});

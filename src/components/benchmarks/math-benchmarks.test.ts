/** The math benchmarks' prepare steps against 127.0.0.1 stand-ins for the Hub (real Parquet bytes) and GitHub raw files. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type HubServer, startHubServer } from "../../testing/hub-server.ts";
import { parquetBytes } from "../../testing/parquet.ts";
import type { PrepareContext } from "./_prepare.ts";
import { prepare as prepareAime24 } from "./aime24/prepare.ts";
import { prepare as prepareAime25 } from "./aime25/prepare.ts";
import { prepare as prepareHmmt } from "./hmmt_feb25/prepare.ts";
import { gsm8kRow, prepare as prepareGsm8k } from "./gsm8k/prepare.ts";
import { hendrycksRow } from "./hendrycks_math/prepare.ts";
import { prepare as prepareMath500 } from "./math-500/prepare.ts";

let dir: string;
let hub: HubServer;
let raw: ReturnType<typeof Bun.serve>;
const saved = { ...process.env };

const ctx = (name: string): PrepareContext & { lines: string[] } => {
  const lines: string[] = [];
  return { outputPath: join(dir, name), args: {}, download: async () => "", writeRows: async () => {}, log: (l) => lines.push(l), lines };
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "gym-math-bench-"));
  hub = await startHubServer();
  process.env.HF_ENDPOINT = hub.url;
  process.env.NEMO_GYM_CACHE_DIR = join(dir, "cache");
  delete process.env.HF_HUB_OFFLINE;
  delete process.env.GYM_OFFLINE;
  const files: Record<string, string> = {
    "/raw/prm800k/test.jsonl": `${JSON.stringify({ problem: "What is $1+1$? é", answer: "2", solution: "It is $\\boxed{2}$.", subject: "Algebra", level: 1, unique_id: "test/algebra/1.json" })}\n`,
    "/raw/gsm8k/test.jsonl":
      `${JSON.stringify({ question: "Tom has 3 apples and buys 1,200 more. How many?", answer: "3 + 1200 = <<3+1200=1203>>1203\n#### 1,203" })}\n` +
      `${JSON.stringify({ question: "Half of 3?", answer: "3/2 = <<3/2=1.5>>1.5\n#### 1.5" })}\n`,
  };
  raw = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/openai/prm800k/raw/main/test.jsonl") return Response.redirect(`${raw.url.origin}/raw/prm800k/test.jsonl`, 302);
      const body = files[path];
      return body === undefined ? new Response("404: Not Found", { status: 404 }) : new Response(body);
    },
  });
});
afterAll(async () => {
  process.env = saved;
  raw.stop(true);
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("Hub benchmarks (Parquet from refs/convert/parquet)", () => {
  test("aime24 writes NeMo Gym's lines: question, expected_answer as str(answer), json.dumps spacing and escapes", async () => {
    const rows = [
      { id: 60, problem: "Every morning Aya walks $9$ km — find $t$.", answer: "204", solution: "…", url: "u" },
      { id: 61, problem: "Second", answer: "25", solution: "s", url: "u" },
    ];
    hub.addFile("HuggingFaceH4/aime_2024", "default/train/0000.parquet", parquetBytes(rows), { revision: "refs/convert/parquet" });
    const c = ctx("aime24.jsonl");
    expect(await prepareAime24(c)).toBe(c.outputPath);
    expect(readFileSync(c.outputPath, "utf8")).toBe(
      '{"question": "Every morning Aya walks $9$ km \\u2014 find $t$.", "expected_answer": "204"}\n{"question": "Second", "expected_answer": "25"}\n',
    );
  });
  test("an integer answer column is written as str(int)", async () => {
    hub.addFile("MathArena/aime_2025", "default/train/0000.parquet", parquetBytes([{ problem_idx: 1, problem: "P", answer: 70 }]), { revision: "refs/convert/parquet" });
    const c = ctx("aime25.jsonl");
    await prepareAime25(c);
    expect(readFileSync(c.outputPath, "utf8")).toBe('{"question": "P", "expected_answer": "70"}\n');
  });
  test("a repository the Hub does not have is an error naming it, and nothing is written", async () => {
    process.env.NEMO_GYM_CACHE_DIR = join(dir, "cache-missing");
    const c = ctx("missing.jsonl");
    hub.addRepo("MathArena/hmmt_feb_2025");
    try {
      await expect(prepareHmmt(c)).rejects.toThrow(/hmmt_feb_2025/);
    } finally {
      process.env.NEMO_GYM_CACHE_DIR = join(dir, "cache");
    }
    expect(() => readFileSync(c.outputPath)).toThrow();
  });
  test("offline (HF_HUB_OFFLINE) refuses, naming the URL and how to pre-fetch", async () => {
    process.env.HF_HUB_OFFLINE = "1";
    process.env.NEMO_GYM_CACHE_DIR = join(dir, "empty-cache");
    try {
      const error = await prepareAime24(ctx("offline.jsonl")).then(() => null, (e: Error & { hint?: string }) => e);
      expect(error?.message).toContain("/datasets/HuggingFaceH4/aime_2024/resolve/refs%2Fconvert%2Fparquet/default/train/0000.parquet");
      expect(`${error?.message} ${error?.hint}`).toContain("prefetch");
    } finally {
      delete process.env.HF_HUB_OFFLINE;
      process.env.NEMO_GYM_CACHE_DIR = join(dir, "cache");
    }
  });
});

describe("GitHub raw benchmarks", () => {
  test("math-500 follows the redirect and keeps every field, answer/solution renamed and moved last, UTF-8 kept", async () => {
    const c = ctx("math500.jsonl");
    await prepareMath500(c, `${raw.url.origin}/openai/prm800k/raw/main/test.jsonl`);
    expect(readFileSync(c.outputPath, "utf8")).toBe(
      '{"problem": "What is $1+1$? é", "subject": "Algebra", "level": 1, "unique_id": "test/algebra/1.json", "question": "What is $1+1$? é", "expected_answer": "2", "reference_solution": "It is $\\\\boxed{2}$."}\n',
    );
  });
  test("gsm8k: the answer after ####, an int when whole; <<…>> removed from the solution", async () => {
    const c = ctx("gsm8k.jsonl");
    await prepareGsm8k(c, `${raw.url.origin}/raw/gsm8k/test.jsonl`);
    expect(readFileSync(c.outputPath, "utf8")).toBe(
      '{"question": "Tom has 3 apples and buys 1,200 more. How many?", "expected_answer": 1203, "reference_solution": "3 + 1200 = 1203\\n"}\n' +
        '{"question": "Half of 3?", "expected_answer": 1.5, "reference_solution": "3/2 = 1.5\\n"}\n',
    );
  });
  test("a 404 is an error naming the URL", async () => {
    await expect(prepareGsm8k(ctx("x.jsonl"), `${raw.url.origin}/raw/none.jsonl`)).rejects.toThrow(/raw\/none\.jsonl/);
  });
  test("gsm8k FIXES and hendrycks renames follow NeMo Gym's prepare.py", () => {
    const q = "If you double a number and add 5 to the result, then that's 20 more than half of the original number. What's the original number?";
    expect(gsm8kRow({ question: q, answer: "x\n#### 5" }).expected_answer).toBe(10);
    expect(Object.keys(hendrycksRow({ idx: 1, problem: "p", answer: "a", level: "L" }))).toEqual(["idx", "level", "expected_answer", "question"]);
  });
});

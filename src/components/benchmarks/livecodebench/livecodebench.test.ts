import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import { detectSandbox } from "../../../sandbox/index.ts";
import { gym } from "../../../testing/binary.ts";
import { livecodebenchXRow } from "../livecodebench-x/prepare.ts";
import { decodeTestCases, unpickle } from "./pickle.ts";
import { canonicalTests, livecodebenchRow, releaseFiles } from "./rows.ts";

// Made with Python 3.11: base64.b64encode(zlib.compress(pickle.dumps(t, protocol=P))) for P in 0, 2, 4, 5, where
// t = json.dumps([{'input':'1 2\n','output':'3\n','testtype':'stdin'},{'input':'é ✓ 😀','output':'x'*300,'testtype':'stdin'}])
const VECTORS: Record<number, string> = {
  0: "eJwLi65WyswrKC1RslJQMlQwiik1MDBNzlPSUVDKLy2BihsjiZakFpeUVBakgsSLS1Iy85RqdRSQzIAoBRKplgpQtpG5oTGMnWJhnAJjphoYoNpTMQqIBjjiIparwIBLDwAg+r7W",
  2: "eJxrYIrYxMjAEF2tlJlXUFqiZKWgZKhgFJOnpKOglF9aAhUyhgiUpBaXlFQWpIKEiktSMvOUanUUkHTGlBoYpFoqxJQamRsaA6kUC+MUIJlqYIBqXMUoIBrgCPfYQgY9AHyotzw=",
  4: "eJxrYJm6k5EBDCI2ARnR1UqZeQWlJUpWCkqGCkYxeUo6Ckr5pSVQIWOIQElqcUlJZUEqSKi4JCUzT6lWRwFJZ0ypgUGqpUJMqZG5oTGQSrEwTgGSqQYGqMZVjAKiAY5wj52iBwAaQriw",
  5: "eJxrYJ26k5EBDCI2ARnR1UqZeQWlJUpWCkqGCkYxeUo6Ckr5pSVQIWOIQElqcUlJZUEqSKi4JCUzT6lWRwFJZ0ypgUGqpUJMqZG5oTGQSrEwTgGSqQYGqMZVjAKiAY5wj52iBwAcBbix",
};
// json.dumps([{'input':'7\n','output':'7\n',…},{'input':'é ✓\n','output':'é ✓\n',…}]) pickled with the default protocol.
const PRIVATE = "eJxrYJnawwABPR3R1UqZeQWlJUpWCkrmMXlKOgpK+aUlqAIlqcUlJZUFqSCh4pKUzDylWh0FJH0xpQYGqZYKMaVG5obG6GZgkcRiXuwUPQDbFSym";

describe("LiveCodeBench private tests: base64 → zlib → pickle without Python", () => {
  for (const [protocol, encoded] of Object.entries(VECTORS)) {
    test(`pickle protocol ${protocol}`, () => {
      const cases = decodeTestCases(encoded);
      expect(cases.map((c) => c.input)).toEqual(["1 2\n", "é ✓ 😀"]);
      expect(cases[1]!.output).toBe("x".repeat(300));
    });
  }
  test("plain JSON passes through; a pickle that builds objects is refused with its opcode", () => {
    expect(decodeTestCases('[{"input": "1", "output": "2"}]')).toEqual([{ input: "1", output: "2" }]);
    expect(decodeTestCases("")).toEqual([]);
    // cos\nsystem\n… : GLOBAL, the opcode an exploit needs.
    expect(() => unpickle(new TextEncoder().encode("cos\nsystem\n(S'ls'\ntR."))).toThrow("unsupported opcode 0x63 at byte 0");
  });
});

const example = (id: string, date: string, extra: Record<string, unknown> = {}) => ({
  question_title: id, question_content: `Problem ${id}: echo the input.`, platform: "atcoder", question_id: id, contest_id: "c", contest_date: `${date}T00:00:00`,
  starter_code: "", difficulty: "easy", public_test_cases: JSON.stringify([{ input: "1\n", output: "1\n", testtype: "stdin" }]), private_test_cases: PRIVATE, metadata: "{}", ...extra,
});

describe("LiveCodeBench rows", () => {
  test("public then private tests, NeMo Gym's prompt fields, the contest-date window [from, to)", () => {
    const row = livecodebenchRow(example("a1", "2024-09-01"), { from: "2024-08-01", to: "2025-03-01" })!;
    expect(row.verifier_metadata).toEqual({ problem_id: "a1", difficulty: "easy", unit_tests: { inputs: ["1\n", "7\n", "é ✓\n"], outputs: ["1\n", "7\n", "é ✓\n"], fn_name: null } });
    expect(row.starter_code).toBe("```python\n# YOUR CODE HERE\n```");
    expect(livecodebenchRow(example("a0", "2024-07-31"), { from: "2024-08-01" })).toBeNull();
    expect(livecodebenchRow(example("a9", "2025-03-01"), { to: "2025-03-01" })).toBeNull();
    const leet = livecodebenchRow(example("l1", "2024-09-01", { starter_code: "class Solution:\n    def f(self, x: int) -> int:", metadata: '{"func_name": "f"}' }), {})!;
    expect([(leet.verifier_metadata as any).unit_tests.fn_name, leet.starter_code]).toEqual(["f", "```python\nclass Solution:\n    def f(self, x: int) -> int:\n```"]);
    expect(releaseFiles("release_v6")).toEqual(["test.jsonl", "test2.jsonl", "test3.jsonl", "test4.jsonl", "test5.jsonl", "test6.jsonl"]);
  });

  test("LiveCodeBench-X: the language's instruction before the question; unknown task ids dropped", () => {
    const canonical = new Map([["a1", canonicalTests(example("a1", "2024-09-01"))]]);
    const row = livecodebenchXRow({ task_id: "a1", question: "Q", release_version: "v5" }, "fr", "target", canonical)!;
    expect(row.question).toBe("Voici un problème pour lequel vous devez générer du code exécutable en langage de programmation Python.\n\nQ");
    expect([row.subset_for_metrics, (row.verifier_metadata as any).difficulty]).toEqual(["fr", "easy"]);
    expect(livecodebenchXRow({ task_id: "zz", question: "Q" }, "fr", "en", canonical)).toBeNull();
  });
});

const hasBwrap = (await detectSandbox()).kind === "bwrap";
if (!hasBwrap) console.warn("skip: the livecodebench eval run test because bubblewrap is not available");

describe("gym eval prepare / run --benchmark livecodebench (fake Hub on loopback, mock model)", () => {
  let hub: ServedApp;
  const files: Record<string, string> = {
    "test.jsonl": `${JSON.stringify(example("old", "2023-05-01"))}\n`,
    "test2.jsonl": "", "test3.jsonl": "", "test4.jsonl": `${JSON.stringify(example("echo", "2024-10-01"))}\n`,
    // The mock model's program echoes stdin, so this one (output ≠ input) fails.
    "test5.jsonl": `${JSON.stringify(example("double", "2025-01-15", { public_test_cases: JSON.stringify([{ input: "2\n", output: "4\n" }]), private_test_cases: "" }))}\n`,
    "test6.jsonl": `${JSON.stringify(example("late", "2025-05-01"))}\n`,
  };
  beforeAll(async () => {
    const app = new Hono();
    // As the Hub does: every answer names the commit it served, and an ETag for the file.
    app.use(async (c, next) => { await next(); c.header("x-repo-commit", "0123456789abcdef0123456789abcdef01234567"); c.header("etag", `"${c.req.path.length}-${c.req.path.replace(/\W/g, "")}"`); });
    app.get("/datasets/livecodebench/code_generation_lite/resolve/:rev/:file", (c) => (c.req.param("file") in files ? c.text(files[c.req.param("file")]!) : c.text("no", 404)));
    hub = await serve(app.fetch, { host: "127.0.0.1", port: 0 });
  });
  afterAll(() => hub.stop());

  (hasBwrap ? test : test.skip)("v5 and v6 windows prepare; eval run scores the echo program 1 where output = input", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "gym-lcb-"));
    const env = { HF_ENDPOINT: hub.url, NEMO_GYM_CACHE_DIR: join(cwd, "cache") };
    for (const [window, ids] of [["v5_2408_2502", ["echo", "double"]], ["v6_2408_2505", ["echo", "double", "late"]]] as const) {
      const prepared = await gym(["eval", "prepare", "--benchmark", `livecodebench/${window}`], { cwd, env });
      expect(prepared.stderr).not.toContain("Error");
      const file = join(cwd, "benchmarks", "livecodebench", window, "data", `livecodebench_${window.slice(0, 2)}_validation.jsonl`);
      const rows = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(rows.map((r) => r.verifier_metadata.problem_id)).toEqual([...ids]);
    }
    const run = await gym(["eval", "run", "--benchmark", "livecodebench", "--model-type", "mock_model", "-o", "r/lcb.jsonl"], { cwd, env });
    expect(run.stderr).not.toContain("Error");
    expect(run.code).toBe(0);
    const rollouts = readFileSync(join(cwd, "r", "lcb.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    // 3 problems × 3 repeats: "echo" and "late" (output = input) pass, "double" (2 → 4) fails.
    expect(rollouts).toHaveLength(9);
    expect(rollouts.filter((r) => r.reward === 1)).toHaveLength(6);
    expect(rollouts.every((r) => r.extracted_model_code === "import sys\nsys.stdout.write(sys.stdin.read())")).toBe(true);
  }, 120_000);
});

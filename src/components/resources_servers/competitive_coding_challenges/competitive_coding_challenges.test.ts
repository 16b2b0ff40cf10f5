import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectSandbox } from "../../../sandbox/index.ts";
import { fullResponse, post, readJsonlFile } from "../_common/testing.ts";
import { toyMetadataLine } from "./_fixtures/toy-problem.ts";
import { addIncludes, extractFinalCodeBlock, patchRunScript } from "./extract.ts";
import createCcc from "./index.ts";
import { loadMetadata } from "./metadata.ts";
import { problemScores } from "./metrics.ts";
import { fractionReward } from "./reward.ts";
import { pyFloat } from "./run-tests.ts";

const dir = import.meta.dir;
const hasBwrap = (await detectSandbox()).kind === "bwrap";
if (!hasBwrap) console.warn("skip: competitive_coding_challenges sandbox tests because bubblewrap is not available (apt-get install bubblewrap)");
const sandboxed = hasBwrap ? test : test.skip;
const tmp = mkdtempSync(join(tmpdir(), "gym-ccc-test-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// addition: subtask 01 (40 points) has tests sample-01 and secret-01; 02 (60 points) has secret-01 and secret-02.
const metadata = join(tmp, "toy.jsonl");
writeFileSync(
  metadata,
  toyMetadataLine("toy", "addition", {
    "01-small": { score: 40, tests: { "sample-01": { input: "1 2\n", output: "3\n" }, "secret-01": { input: "5 5\n", output: "10\n" } } },
    "02-large": { score: 60, tests: { "secret-01": { input: "5 5\n", output: "10\n" }, "secret-02": { input: "2000000000 2000000000\n", output: "4000000000\n" } } },
  }) + "\n",
);
const config = { test_file: metadata, test_batch_size: 4, num_parallel_requests: 4, time_scale: 1.0, shared_dir: "/tmp", reward_mode: "binary" };
const answer = (text: string) => fullResponse({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }] });
const params = { input: [{ role: "user", content: "solve" }] };
const cpp = (code: string) => "Here it is:\n```cpp\n" + code + "\n```";
const RIGHT = "int main(){ long long a,b; cin>>a>>b; cout<<a+b<<endl; }";
const SMALL_ONLY = "int main(){ int a,b; cin>>a>>b; cout<<a+b<<endl; }"; // overflows on secret-02

describe("competitive_coding_challenges: extraction, metadata, scoring", () => {
  test("the last ```cpp block (case-insensitive); no block is the whole text; includes and `using namespace std` added", () => {
    expect(extractFinalCodeBlock("```cpp\na\n```\n```CPP \nb\n```", ["cpp"])).toBe("b\n");
    expect(extractFinalCodeBlock("no code", ["cpp"])).toBe("no code");
    expect(addIncludes("int main(){}", "nile.h", "nile")).toBe('#include <bits/stdc++.h>\n#include "nile.h"\n\nusing namespace std;\n\nint main(){}\n');
    expect(addIncludes("std::vector<int> construct_range(int M,int K){return {};}", null, "triples")).toContain("long long count_triples(std::vector<int> H){return 0LL;}");
  });
  test("run scripts get a kill before each bare `wait \"$user_pid\"`", () => {
    expect(patchRunScript('  wait "$user_pid"\n')).toBe('  kill "$user_pid" 2>/dev/null || true\n  wait "$user_pid"\n');
    expect(patchRunScript('kill "$user_pid"\nwait "$user_pid"')).toBe('kill "$user_pid"\nwait "$user_pid"');
  });
  test("scores parse as Python's float(); anything else is 0", () => {
    expect([pyFloat("1"), pyFloat("0.5"), pyFloat("1e2"), pyFloat("-inf"), pyFloat(""), pyFloat("1 2"), pyFloat("ok")]).toEqual([1, 0.5, 100, -Infinity, null, null, null]);
  });
  test("the legacy shape normalizes to subtasks + all_tests; lookups fail with NeMo Gym's messages", () => {
    const index = loadMetadata(metadata);
    const problem = index.get("addition", "toy");
    expect(problem.subtasks["02-large"]).toEqual({ aggregation: "min", score: 60, score_precision: 0, test_names: ["secret-01", "secret-02"] });
    expect(Object.entries(problem.all_tests).map(([n, t]) => [n, t.group])).toEqual([["sample-01", "sample"], ["secret-01", "secret"], ["secret-02", "secret"]]);
    expect(() => index.get("addition", "usaco25")).toThrow("Competition 'usaco25' not found for problem 'addition'. Available competitions: ['toy']");
    expect(() => index.get("nile", null)).toThrow("Problem 'nile' not found in metadata.");
  });
  test("fraction reward counts each test once across subtasks; total_score takes each subtask's best over rollouts", () => {
    const evaluation: any = { test_case_results: { a: { score: 0, outputs: [{ test_name: "t1", score: 1 }, { test_name: "t2", score: 0 }] }, b: { score: 0, outputs: [{ test_name: "t2", score: 0 }] } } };
    expect(fractionReward({ problem_id: "p" }, evaluation)).toBe(0.5);
    const rows = [[{ problem_id: "p", details: { test_case_results: { a: { score: 40 }, b: { score: 0 } } } }, { problem_id: "p", details: { test_case_results: { b: { score: 60 } } } }]];
    const { total, perProblem } = problemScores(rows, (_p, _c, s) => (s === "a" ? 40 : 60));
    expect(total).toBe(100);
    expect(JSON.parse(JSON.stringify(perProblem))).toEqual({ p: { total: { score: 100, max_score: 100 }, subtasks: { a: { score: 40, max_score: 40 }, b: { score: 60, max_score: 60 } } } });
  });
});

describe("competitive_coding_challenges: compiled and run in the sandbox", () => {
  const send = (app: ReturnType<typeof createCcc>, text: string, subtask: string | null, extra: Record<string, unknown> = {}) =>
    post(app, "/verify", { responses_create_params: params, response: answer(text), competition_id: "toy", problem_id: "addition", subtask, ...extra });

  sandboxed("subtask verdicts, the whole problem, a compile error, and fraction mode", async () => {
    const app = createCcc(config);
    const [right, smallOnlyLarge, smallOnlySmall, whole, broken] = await Promise.all([
      send(app, cpp(RIGHT), "02-large"),
      send(app, cpp(SMALL_ONLY), "02-large"),
      send(app, cpp(SMALL_ONLY), "01-small", { subtask_score: 40 }),
      send(app, cpp(SMALL_ONLY), null),
      send(app, cpp("int main() { return x; }"), "01-small"),
    ]);
    expect([right.status, right.body.reward, right.body.details.test_case_results["02-large"].score]).toEqual([200, 1, 60]);
    // Only the asked subtask's tests run; secret-01 is also 01-small's, which scores on it alone.
    const small = right.body.details.test_case_results["01-small"];
    expect([small.score, small.outputs.map((o: any) => o.test_name)]).toEqual([40, ["secret-01"]]);
    const large = smallOnlyLarge.body.details.test_case_results["02-large"];
    expect([smallOnlyLarge.body.reward, large.score, large.outputs.map((o: any) => [o.test_name, o.test_group, o.score, o.run_stderr])]).toEqual([
      0, 0, [["secret-01", "secret", 1, "Output is correct (diff)\n"], ["secret-02", "secret", 0, "Output isn't correct (diff)\n"]],
    ]);
    expect([smallOnlySmall.body.reward, smallOnlySmall.body.subtask_score, smallOnlySmall.body.name]).toEqual([1, 40, "addition"]);
    expect([whole.body.reward, whole.body.details.test_case_results["01-small"].score, whole.body.num_tests_run]).toEqual([0, 40, 3]);
    const out = broken.body.details.test_case_results["01-small"].outputs[0];
    expect([broken.body.reward, out.compile_success, out.compile_stderr, broken.body.num_tests_run]).toEqual([0, false, expect.stringContaining("error"), 0]);
    const fraction = createCcc({ ...config, reward_mode: "fraction" });
    expect((await send(fraction, cpp(SMALL_ONLY), null)).body.reward).toBeCloseTo(2 / 3, 10);
    expect(Object.keys(right.body)).toEqual(["responses_create_params", "response", "reward", "competition_id", "problem_id", "subtask", "name", "subtask_score", "details", "num_tests_run", "total_test_execution_time_s", "mean_test_execution_time_s"]);
  }, 180_000);

  test("a missing metadata file fails the verification, naming the file", async () => {
    const app = createCcc({ ...config, test_file: join(tmp, "absent.jsonl") });
    const r = await post(app, "/verify", { responses_create_params: params, response: answer(cpp(RIGHT)), problem_id: "addition" });
    expect(r.status).toBe(500);
    expect(JSON.stringify(r.body)).toContain(join(tmp, "absent.jsonl"));
  });

  test("an unknown problem scores 0 with the lookup's message in details.error", async () => {
    const app = createCcc(config);
    const r = await post(app, "/verify", { responses_create_params: params, response: answer(cpp(RIGHT)), competition_id: "toy", problem_id: "nile" });
    expect([r.body.reward, r.body.details, r.body.num_tests_run]).toEqual([0, { error: "Problem 'nile' not found in competition 'toy'. Available problems: ['addition']" }, 0]);
  });

  sandboxed("NeMo Gym's published rollouts (usaco25 makingmexes; its tests are unpublished): against 11 stand-in tests of the same names, every verdict as published", async () => {
    const names = ["sample-01", "sample-02", ...Array.from({ length: 9 }, (_, i) => `secret-0${i + 1}`)];
    // Stand-in tests none of the five published programs can pass (they print numbers >= 0 or a prompt), in the
    // normalized shape with a `sum_tests` subtask: every test runs and counts (11 tests, subtask_score 11).
    const legacy = JSON.parse(toyMetadataLine("usaco25", "makingmexes", { all_tests: { score: 11, tests: {} } }, 2)).metadata.makingmexes.all_tests;
    const all_tests = Object.fromEntries(names.map((n) => [n, { input: "3\n1 2 3\n", output: "-1\n", group: n.split("-")[0] }]));
    const problem = { name: "A-makingmexes", compile: legacy.compile, run: legacy.run, grader_files: legacy.grader_files, subtasks: { all_tests: { aggregation: "sum_tests", score: 11, score_precision: 0, test_names: names } }, all_tests };
    const file = join(tmp, "usaco25.jsonl");
    writeFileSync(file, JSON.stringify({ competition_id: "usaco25", metadata: { makingmexes: problem } }) + "\n");
    const app = createCcc({ ...config, test_file: file, test_batch_size: 32 });
    const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl") as any[];
    expect(rollouts).toHaveLength(5);
    const inputs = readJsonlFile(dir, "data/example.jsonl") as any[];
    const replies = await Promise.all(rollouts.map((r, i) => post(app, "/verify", { ...inputs[i], response: r.response })));
    const verdicts = (row: any) => row.details.test_case_results.all_tests.outputs.map((o: any) => [o.test_name, o.test_group, o.compile_success, o.compile_stderr, o.run_stdout, o.run_stderr, o.error, o.score]);
    replies.forEach((reply, i) => {
      const stored = rollouts[i];
      expect(reply.status).toBe(200);
      expect([reply.body.reward, reply.body.subtask_score, reply.body.name, reply.body.num_tests_run, reply.body.details.test_case_results.all_tests.score]).toEqual([
        stored.reward, stored.subtask_score, stored.name, stored.num_tests_run, stored.details.test_case_results.all_tests.score,
      ]);
      expect(verdicts(reply.body)).toEqual(verdicts(stored));
    });
  }, 240_000);
});

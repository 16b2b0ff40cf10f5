// scicode: the program builder and the agent's text pieces; sub-steps run for real in the sandbox with Debian's
// numpy/scipy/sympy/h5py against fixtures/scicode/test_data.h5 (tests that need them skip with a notice); NeMo Gym's
// published rollouts through `gym eval reverify`; `gym eval run --benchmark scicode` end to end (agent → model →
// sandbox) against a policy that answers SciCode's ground-truth code, and against the mock model.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import { detectSandbox } from "../../../sandbox/index.ts";
import { ensureBinary, gym } from "../../../testing/binary.ts";
import { extractPythonScript, isContextWindowError, problemSteps, prefilledCode } from "../../responses_api_agents/scicode_agent/steps.ts";
import { post, readJsonlFile } from "../_common/testing.ts";
import createServer, { OUT_OF_CONTEXT, scientificPython } from "./index.ts";
import { buildTestProgram, sanitizeTest } from "./program.ts";

type Row = Record<string, any>;
const dir = import.meta.dir;
const fixture = join(dir, "../../../../fixtures/scicode/test_data.h5");
const rows = readJsonlFile<Row>(dir, "data/example.jsonl");
const published = readJsonlFile<Row>(dir, "data/example_rollouts.jsonl");
const problem1 = rows.find((r) => r.problem_id === "1")!;

const hasBwrap = (await detectSandbox()).kind === "bwrap";
const python = await scientificPython("/usr/bin/python3").then(() => true, (e: Error) => (console.warn(`skip: scicode sandbox tests: ${e.message}`), false));
if (!hasBwrap) console.warn("skip: scicode sandbox tests because bubblewrap is not available (apt-get install bubblewrap)");
const sandboxed = hasBwrap && python ? test : test.skip;

const server = (extra: Row = {}) => createServer({ test_data_fpath: fixture, timeout_secs: 30.0, num_processes: 4, ...extra }, { name: "scicode" });
const verifyBody = (problem: Row, solutions: Record<string, string> | null) => ({ ...problem, solutions, response: published[0]!.response });
const deps = (problem: Row) => `${problem.required_dependencies}\n`;
const groundTruth = (problem: Row, i = 0) => `${deps(problem)}\n${problem.sub_steps[i].ground_truth_code}`;

describe("scicode: programs and prompts", () => {
  test("scicode imports are dropped from tests; the program loads the step's targets and runs each test after `target = targets[i]`", () => {
    expect(sanitizeTest("from scicode.compare.cmp import cmp_tuple_or_list\n  import scicode\nimport scicodex\nassert 1")).toBe("import scicodex\nassert 1");
    const program = buildTestProgram("def f(): pass", "/data/test_data.h5", "7.2", ["assert f() is None", "assert True"]);
    expect(program.startsWith('def f(): pass\nimport h5py\nimport scipy\nH5PY_FILE = "/data/test_data.h5"\n')).toBe(true);
    expect(program).toContain("def cmp_tuple_or_list(var1, var2):");
    expect(program.endsWith("targets = process_hdf5_to_tuple('7.2', 2)\ntarget = targets[0]\n\nassert f() is None\ntarget = targets[1]\n\nassert True\n")).toBe(true);
  });
  test("the agent's step context, code extraction, prefilled steps and context-window errors (NeMo Gym's step_utils)", () => {
    const steps = [{ step_description_prompt: "D1", step_background: "B1", function_header: "def a():", return_line: "    return 1" }, { step_description_prompt: "D2", step_background: "B2", function_header: "def b():", return_line: "    return 2" }];
    expect(problemSteps(steps, 1, ["CODE1", null], true)).toEqual(["D1\nB1\n\nCODE1", "D2\nB2\n\ndef b():\n\n    return 2", "CODE1"]);
    expect(problemSteps(steps, 0, [null, null], false)).toEqual(["", "D1\n\ndef a():\n\n    return 1", ""]);
    expect(extractPythonScript("x\n```python\nimport numpy as np\nfrom a import b\ndef f():\n    return np.pi\n```\ntail")).toBe("\n\ndef f():\n    return np.pi\n");
    expect(extractPythonScript("```\nfrom x\nimport y\nz = 1\n```")).toBe("\nz = 1\n");
    expect(extractPythonScript("no fence")).toBe("no fence");
    expect([prefilledCode("13", 5)?.startsWith("def __init__(self, n_grid, x_out):"), prefilledCode("62", 0)?.startsWith("def __init__(self, length"), prefilledCode("1", 0)]).toEqual([true, true, undefined]);
    expect([isContextWindowError(new Error("400: Requested token count exceeds the model's maximum")), isContextWindowError(new Error("500"))]).toEqual([true, false]);
  });
  test("no solutions: reward 0, nothing scored, no test data needed; a scored step without test data is refused", async () => {
    const none = await post(createServer({ test_data_fpath: null }, { name: "scicode" }), "/verify", verifyBody(problem1, null));
    expect([none.body.reward, none.body.step_results, none.body.num_steps_total, none.body.problem_accuracy, none.body.subtask_accuracy]).toEqual([0, [], 0, false, 0]);
    expect(Object.keys(none.body)).toEqual(["responses_create_params", "response", "reward", "problem_id", "step_results", "num_steps_passed", "num_steps_total", "problem_accuracy", "subtask_accuracy"]);
    const unset = await post(createServer({ test_data_fpath: null }, { name: "scicode" }), "/verify", verifyBody(problem1, { "1.1": "x" }));
    expect(unset.status).toBe(500);
    expect(JSON.stringify(unset.body)).toContain("test_data_fpath is not configured");
    const missing = await post(createServer({ test_data_fpath: "/nonexistent/test_data.h5" }, { name: "scicode" }), "/verify", verifyBody(problem1, { "1.1": "x" }));
    expect(JSON.stringify(missing.body)).toContain("SciCode test_data.h5 not found at /nonexistent/test_data.h5");
  });
  test("metrics: sub-step-weighted subtask_accuracy and the across-run spread; key metrics mean/* and subtask_accuracy*", async () => {
    const r = (t: number, k: number, passed: number, total: number) => ({ _ng_task_index: t, _ng_rollout_index: k, reward: passed === total ? 1 : 0, num_steps_passed: passed, num_steps_total: total, problem_accuracy: passed === total });
    const reply = await post(server(), "/aggregate_metrics", { verify_responses: [r(0, 0, 1, 1), r(0, 1, 0, 1), r(1, 0, 3, 4), r(1, 1, 2, 4)] });
    const m = reply.body.agent_metrics;
    expect([m.subtask_accuracy, m["subtask_accuracy/std_dev_across_runs"], m["mean/problem_accuracy/std_dev_across_runs"]]).toEqual([0.6, 0.282842712474619, 0.3535533905932738]); // Python's statistics.stdev
    expect(Object.keys(reply.body.key_metrics).every((k) => k.startsWith("mean/") || k.startsWith("subtask_accuracy"))).toBe(true);
  });
});

describe("scicode: sub-steps run in the sandbox (Debian's numpy/scipy/sympy/h5py)", () => {
  sandboxed("SciCode's ground truth passes its three tests; a wrong one, an empty one and the out-of-context sentinel fail", async () => {
    const right = await post(server(), "/verify", verifyBody(problem1, { "1.1": groundTruth(problem1) }));
    expect([right.body.reward, right.body.step_results, right.body.problem_accuracy, right.body.subtask_accuracy]).toEqual([1, [true], true, 1]);
    const wrong = await post(server(), "/verify", verifyBody(problem1, { "1.1": `${deps(problem1)}\ndef cg(A, b, x, tol):\n    return x` }));
    expect([wrong.body.reward, wrong.body.step_results]).toEqual([0, [false]]);
    for (const code of ["", OUT_OF_CONTEXT]) expect((await post(server(), "/verify", verifyBody(problem1, { "1.1": code }))).body.step_results).toEqual([false]);
  }, 60_000);
  sandboxed("targets of every HDF5 shape (a tuple of array and scalar; a dict with a float key, UTF-8 text and a CSR matrix; a list group)", async () => {
    const step = { step_number: "900.1", test_cases: [
      "from scicode.compare.cmp import cmp_tuple_or_list\nassert cmp_tuple_or_list(f(), target)",
      "from scicode.compare.cmp import are_dicts_close\nassert are_dicts_close(g(), target)",
      "assert np.allclose(h(), target)",
    ] };
    const problem = { ...problem1, problem_id: "900", sub_steps: [step] };
    const code = (text: string) => `import numpy as np\nimport scipy.sparse\ndef f():\n    return (np.arange(3.0), 2.5)\ndef g():\n    return {0.5: np.array([1.0, 2.0]), "name": ${JSON.stringify(text)}, "mat": scipy.sparse.csr_matrix(np.array([[0.0, 1.0], [2.0, 0.0]]))}\ndef h():\n    return [1.0, 4.0]\n`;
    const ok = await post(server(), "/verify", verifyBody(problem, { "900.1": code("Grüße") }));
    expect([ok.body.reward, ok.body.step_results]).toEqual([1, [true]]);
    const bad = await post(server(), "/verify", verifyBody(problem, { "900.1": code("Gruesse") }));
    expect(bad.body.step_results).toEqual([false]);
  }, 60_000);
  sandboxed("a step that never ends is stopped at timeout_secs and fails; steps run concurrently up to num_processes", async () => {
    const problem = { ...problem1, sub_steps: [problem1.sub_steps[0], problem1.sub_steps[0]] };
    const started = Date.now();
    const r = await post(server({ timeout_secs: 2.0 }), "/verify", verifyBody(problem, { "1.1": "while True:\n    pass", "1.2": groundTruth(problem1) }));
    expect([r.body.step_results, r.body.num_steps_passed, r.body.num_steps_total, r.body.subtask_accuracy]).toEqual([[false, true], 1, 2, 0.5]);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});

describe("scicode on the binary", () => {
  let dirRun: string;
  let policy: ServedApp;
  let calls = 0;
  beforeAll(async () => {
    await ensureBinary();
    dirRun = mkdtempSync(join(tmpdir(), "gym-scicode-"));
    // A policy that answers each step's prompt with SciCode's ground-truth code for the header it is asked for.
    const steps = rows.flatMap((r) => r.sub_steps as Row[]);
    policy = await serve(async (request) => {
      if (request.method !== "POST") return Response.json({ object: "list", data: [{ id: "policy", object: "model" }] });
      const body = (await request.json()) as Row;
      calls++;
      const prompt = String(body.input?.[0]?.content ?? "");
      const next = prompt.slice(prompt.indexOf("NEXT STEP - PROBLEM STEP AND FUNCTION HEADER:"));
      const hit = steps.find((s) => next.includes(s.function_header));
      const text = hit ? `Here it is:\n\`\`\`python\nimport numpy as np\n${hit.ground_truth_code}\n\`\`\`` : "no idea";
      return Response.json({ id: `resp_${calls}`, created_at: 1700000000, model: "policy", object: "response", parallel_tool_calls: true, tool_choice: "auto", tools: [], status: "completed", output: [{ id: `msg_${calls}`, type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }] });
    });
  }, 120_000);
  afterAll(async () => {
    await policy?.stop();
    rmSync(dirRun, { recursive: true, force: true });
  });

  test("gym eval reverify --benchmark scicode of the published rollouts: 5 of 5 rewards; the step fields pinned (the rows store no solutions)", async () => {
    const agent = { name: "scicode_benchmark_agent" };
    writeFileSync(join(dirRun, "inputs.jsonl"), published.map((p) => JSON.stringify({ ...rows[p._ng_task_index], _ng_task_index: p._ng_task_index, _ng_rollout_index: p._ng_rollout_index, agent_ref: agent })).join("\n") + "\n");
    writeFileSync(join(dirRun, "rollouts.jsonl"), published.map((p) => JSON.stringify(p)).join("\n") + "\n");
    const r = await gym(["eval", "reverify", "--force", "--benchmark", "scicode", "--inputs", "inputs.jsonl", "--rollouts", "rollouts.jsonl", "-o", "re.jsonl"], { cwd: dirRun });
    expect({ code: r.code, stderr: r.code === 0 ? "" : r.stderr }).toEqual({ code: 0, stderr: "" });
    const got = new Map(readFileSync(join(dirRun, "unsafe_re.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).map((row: Row) => [row._ng_task_index, row]));
    expect(published.map((p) => got.get(p._ng_task_index)!.reward)).toEqual(published.map((p) => p.reward));
    // NeMo Gym's own reverify scores these rows the same way: /verify gets no `solutions`, so nothing is scored.
    for (const p of published) expect([got.get(p._ng_task_index)!.num_steps_total, got.get(p._ng_task_index)!.step_results, got.get(p._ng_task_index)!.problem_id]).toEqual([0, [], p.problem_id]);
  }, 120_000);

  (hasBwrap && python ? test : test.skip)("gym eval run --benchmark scicode: the agent's step loop, the sandbox and the HDF5 targets end to end (a policy answering SciCode's ground truth: problem 1 passes, problem 3 has no targets in the fixture)", async () => {
    const keys = ["responses_create_params", "problem_id", "problem_name", "required_dependencies", "sub_steps", "uuid"];
    writeFileSync(join(dirRun, "tasks.jsonl"), rows.filter((r) => ["1", "3"].includes(r.problem_id)).map((r) => JSON.stringify(Object.fromEntries(keys.map((k) => [k, r[k]])))).join("\n") + "\n");
    const r = await gym(["eval", "run", "--benchmark", "scicode", "--model-type", "openai_model", "--model", "policy", "--model-url", `${policy.url}/v1`, "--model-api-key", "sk-x",
      "--input", "tasks.jsonl", "--num-repeats", "1", "-o", "r/sc.jsonl", `++scicode_benchmark_resources_server.resources_servers.scicode.test_data_fpath=${fixture}`], { cwd: dirRun });
    expect({ code: r.code, stderr: r.code === 0 ? "" : r.stderr }).toEqual({ code: 0, stderr: "" });
    const out = readFileSync(join(dirRun, "r/sc.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Row);
    const byId = new Map(out.map((row) => [row.problem_id, row]));
    // Problem 1's targets are in the fixture: its ground truth passes. Problem 3's are not: its step fails.
    expect([byId.get("1")!.reward, byId.get("1")!.step_results, byId.get("3")!.reward, byId.get("3")!.step_results]).toEqual([1, [true], 0, [false]]);
    const metrics = JSON.parse(readFileSync(join(dirRun, "r/sc_aggregate_metrics.json"), "utf8"))[0];
    expect([metrics.agent_metrics.subtask_accuracy, metrics.key_metrics.subtask_accuracy]).toEqual([0.5, 0.5]);
  }, 180_000);
});

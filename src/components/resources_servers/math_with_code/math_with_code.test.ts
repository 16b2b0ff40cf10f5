// math_with_code: answer extraction and comparison (cases labelled by NeMo Gym's own _extract_boxed_answer /
// _answers_match); the stateful Python session in bubblewrap (state across calls, one per cookie, ended by /verify
// and /end_session, a stuck cell, hostile cells); NeMo Gym's published rollouts through /verify and `gym eval
// reverify` on the binary; `gym eval run` with its config against mock_model.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectSandbox, probePython } from "../../../sandbox/index.ts";
import { gym } from "../../../testing/binary.ts";
import { reverifyPublished } from "../../../testing/published-rollouts.ts";
import { post, promptKey, readJsonlFile } from "../_common/testing.ts";
import { answersMatch, extractBoxedAnswer } from "./answer.ts";
import createServer_ from "./index.ts";

type Row = Record<string, any>;
const dir = import.meta.dir;
const examples = readJsonlFile<Row>(dir, "data/example.jsonl");
const published = readJsonlFile<Row>(dir, "data/example_rollouts.jsonl");
const OUTPUTS = ["reward", "extracted_answer", "accuracy"];

const hasBwrap = (await detectSandbox()).kind === "bwrap";
const python = await probePython(process.env.GYM_PYTHON || "python3");
const scientific = python !== null && (await Bun.$`${python.executable} -c "import numpy, scipy"`.quiet().nothrow()).exitCode === 0;
if (!hasBwrap || !scientific) console.warn(`skip: math_with_code session tests: ${!hasBwrap ? "bubblewrap is not available (apt-get install bubblewrap)" : "python3 cannot import numpy and scipy"}`);
const sandboxed = hasBwrap && scientific ? test : test.skip;

const server = (extra: Row = {}) => createServer_({ max_execution_time: 2, ...extra }, { name: "math_with_code" });

function tagged(tag: string): string[] {
  return readdirSync("/proc").filter((p) => /^\d+$/.test(p)).filter((p) => {
    try {
      return readFileSync(`/proc/${p}/environ`, "latin1").includes(`GYM_SANDBOX_TAG=${tag}`);
    } catch {
      return false;
    }
  });
}

/** Waits (bounded) until no process carries the tag: a closed session exits within moments. */
async function gone(tag: string): Promise<string[]> {
  for (let i = 0; i < 50 && tagged(tag).length; i++) await Bun.sleep(100);
  return tagged(tag);
}

describe("math_with_code: the answer (labelled by NeMo Gym's _extract_boxed_answer and _answers_match)", () => {
  test("the last \\boxed{…}, braces counted, Python's whitespace", () => {
    const cases: [string, string | null][] = [
      ["\\boxed{\\frac{1}{2}} and \\boxed{ 3 }", "3"],
      ["\\boxed{\\frac{1}{2}", null],
      ["\\boxed{  }", null],
      ["no box", null],
      ["a \\boxed{x_{2016}}\u3000", "x_{2016}"],
      ["\\boxed{\u2003٣\u2003}", "٣"],
    ];
    expect(cases.map(([t]) => extractBoxedAnswer(t))).toEqual(cases.map(([, a]) => a));
  });
  test("wrappers stripped, whitespace collapsed, Python's float() with a relative 1e-6", () => {
    const cases: [string | null, string, boolean][] = [
      ["42", "42.0", true], [".5", "\\(0.5\\)", true], ["\\sqrt{2}", "\\(\\sqrt{2}\\)", true], ["x", "$x$", true], ["$", "$", true],
      ["yes", "\\text{ yes }", true], ["1_000", "1000", true], ["٣", "3", true], ["a  b", "a\u00a0b", true], ["inf", "inf", true],
      ["1e-7", "0", true], ["1.0000001", "1", true], ["1000001", "1000000", false], [null, "1", false], ["3\x1c", "3", true], ["nan", "nan", true],
    ];
    expect(cases.map(([a, e]) => answersMatch(a, e))).toEqual(cases.map(([, , m]) => m));
  });
});

describe("math_with_code: the Python session in the sandbox", () => {
  test("an interpreter that does not run fails the call with a 500 naming it (the run's problem, not the model's)", async () => {
    const r = await post(server({ python: "/nonexistent/python3", sandbox: "unsafe_no_sandbox" }), "/execute_python", { code: "1" });
    expect(r.status).toBe(500);
    expect(JSON.stringify(r.body)).toContain("/nonexistent/python3");
  });
  sandboxed("state lasts across calls of one cookie, not across cookies; the restricted builtins, last-line value, errors and the alarm as NeMo Gym's", async () => {
    const app = server();
    const first = await post(app, "/execute_python", { code: "x = 41\nimport math\nx + 1" });
    expect(first.body).toEqual({ success: true, stdout: "", stderr: "", error_message: null, result: "42" });
    const cookie = first.cookie!;
    const again = await post(app, "/execute_python", { code: "print(x, np.sum(np.ones(3)), scipy.__name__)\nmath.factorial(5)" }, cookie);
    expect(again.body).toEqual({ success: true, stdout: "41 3.0 scipy\n", stderr: "", error_message: null, result: "120" });
    const other = await post(app, "/execute_python", { code: "x" });
    expect([other.body.success, other.body.error_message]).toEqual([false, "name 'x' is not defined"]); // another cookie, another session
    const errors = await post(app, "/execute_python", { code: "print('lost')\nsorted([2, 1])" }, cookie);
    expect(errors.body).toEqual({ success: false, stdout: "", stderr: "", error_message: "name 'sorted' is not defined", result: null });
    const scoped = await post(app, "/execute_python", { code: "def f():\n    return x\nf()" }, cookie);
    expect(scoped.body.error_message).toBe("name 'x' is not defined"); // separate globals and locals, as NeMo Gym's exec
    const slow = await post(app, "/execute_python", { code: "while True: pass" }, cookie);
    expect(slow.body).toEqual({ success: false, stdout: "", stderr: "", error_message: "code timed-out", result: null });
    expect((await post(app, "/execute_python", { code: "x" }, cookie)).body.result).toBe("41");
    expect((await post(app, "/execute_python", {}, cookie)).status).toBe(422);
    const ended = await post(app, "/end_session", undefined, cookie);
    expect(ended.body).toEqual({ success: true, stdout: "", stderr: "", error_message: null, result: null });
    expect((await post(app, "/execute_python", { code: "x" }, cookie)).body.error_message).toBe("name 'x' is not defined"); // a fresh session
    expect((await post(app, "/execute_python", { code: "x = 1\ny = x + 1" }, cookie)).body).toEqual({ success: true, stdout: "", stderr: "", error_message: null, result: null });
  }, 60_000);

  sandboxed("/verify ends the session's program; a cell stuck past its alarm ends its session (and only that one)", async () => {
    const tag = `mwc-${process.pid}-${Date.now()}`;
    process.env.GYM_SANDBOX_TAG = tag;
    try {
      const app = server({ max_execution_time: 1 });
      const a = await post(app, "/execute_python", { code: "y = 1" });
      const b = await post(app, "/execute_python", { code: "z = 2" });
      expect(tagged(tag).length).toBeGreaterThan(0);
      const stuck = await post(app, "/execute_python", { code: "import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\nwhile True: pass" }, a.cookie);
      expect(stuck.body.error_message).toMatch(/still running 5 s after the 1 s time limit: it was killed and the session's state is lost/);
      expect((await post(app, "/execute_python", { code: "1" }, a.cookie)).body.success).toBe(false);
      expect((await post(app, "/execute_python", { code: "z" }, b.cookie)).body.result).toBe("2");
      const row = examples[0]!;
      const verify = await post(app, "/verify", { ...row, response: published[1]!.response }, b.cookie);
      expect(verify.status).toBe(200);
      expect(await gone(tag)).toEqual([]);
    } finally {
      delete process.env.GYM_SANDBOX_TAG;
    }
  }, 60_000);

  sandboxed("hostile cells: rm -rf /, a fork bomb, the network, host files, killing gym: nothing outside changes, nothing survives", async () => {
    const host = mkdtempSync(join(tmpdir(), "gym-mwc-hostile-"));
    const secret = join(host, "secret.txt");
    writeFileSync(secret, "TOP-SECRET\n");
    let connections = 0;
    const listener = createServer((socket) => {
      connections++;
      socket.end("HELLO\n");
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const port = (listener.address() as { port: number }).port;
    const tag = `mwc-hostile-${process.pid}-${Date.now()}`;
    process.env.GYM_SANDBOX_TAG = tag;
    const cells: Record<string, string> = {
      "rm -rf /": "import os\nos.system('rm -rf --no-preserve-root / 2>/dev/null')\nimport shutil\nshutil.rmtree(" + JSON.stringify(host) + ", ignore_errors=True)",
      "reading a host file": `open(${JSON.stringify(secret)}).read()`,
      "a socket to the host": `import socket\nsocket.create_connection(('127.0.0.1', ${port}), timeout=2).recv(10)`,
      "writing outside": `for p in (${JSON.stringify(join(host, "planted"))}, '/etc/planted', '/usr/planted'):\n    open(p, 'w')`,
      "killing gym": `import os\nos.kill(${process.pid}, 9)`,
      "a fork bomb": "import os\nwhile True:\n    os.fork()",
    };
    try {
      const app = server({ max_execution_time: 3 });
      const replies: Row = {};
      for (const [name, code] of Object.entries(cells)) {
        const reply = await post(app, "/execute_python", { code });
        replies[name] = reply.body;
        await post(app, "/end_session", undefined, reply.cookie);
      }
      expect(readFileSync(secret, "utf8")).toBe("TOP-SECRET\n");
      expect(connections).toBe(0);
      expect([existsSync(join(host, "planted")), existsSync("/etc/planted"), existsSync("/usr/planted")]).toEqual([false, false, false]);
      expect(replies["reading a host file"].success).toBe(false);
      expect(replies["a socket to the host"].success).toBe(false);
      expect(replies["writing outside"].success).toBe(false);
      expect(replies["killing gym"].success).toBe(false);
      expect(replies["a fork bomb"].success).toBe(false);
      // A sound session still works beside them, and every session ends at /verify.
      const ok = await post(app, "/execute_python", { code: "6 * 7" });
      expect(ok.body.result).toBe("42");
      await post(app, "/verify", { ...examples[0]!, response: published[1]!.response }, ok.cookie);
      expect(await gone(tag)).toEqual([]);
    } finally {
      delete process.env.GYM_SANDBOX_TAG;
      listener.close();
      rmSync(host, { recursive: true, force: true });
    }
  }, 120_000);
});

/** The published rollouts carry no expected_result: each is joined to its example row by prompt. */
const joined: Row[] = published.map((rollout) => {
  const row = examples.find((e) => promptKey(e.responses_create_params) === promptKey(rollout.responses_create_params))!;
  return { ...rollout, expected_result: row.expected_result, expected_code_contains: row.expected_code_contains, id: row.id };
});
/**
 * NeMo Gym's current code scores three published rows differently from what was published (an older extractor cut
 * the box at its first `}`): rows 2, 3, 4 get their whole box back, and row 4's `\sqrt{2}` now matches `\(\sqrt{2}\)`.
 */
const CURRENT: Row[] = [
  { reward: 1, extracted_answer: "-3", accuracy: true },
  { reward: 0, extracted_answer: "0", accuracy: false },
  { reward: 0, extracted_answer: "\\dfrac{83}{499}", accuracy: false },
  { reward: 0, extracted_answer: "x_{2016} \\approx \\frac{1 + \\sqrt{3}}{2\\sqrt{3}} (2 + \\sqrt{3})^{2016}", accuracy: false },
  { reward: 1, extracted_answer: "\\sqrt{2}", accuracy: true },
];

describe("math_with_code: NeMo Gym's published rollouts", () => {
  test("5 of 5 through /verify as its current code scores them; the published values of rows 0 and 1 unchanged; key order", async () => {
    expect(joined.map((r) => r.id)).toEqual([4, 0, 2, 1, 3]);
    const app = server();
    for (const [i, rollout] of joined.entries()) {
      const r = await post(app, "/verify", Object.fromEntries(Object.entries(rollout).filter(([k]) => !OUTPUTS.includes(k))));
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(["responses_create_params", "response", "reward", "extracted_answer", "accuracy"]);
      expect(OUTPUTS.map((k) => r.body[k])).toEqual(OUTPUTS.map((k) => CURRENT[i]![k]));
      if (i < 2) expect(OUTPUTS.map((k) => r.body[k])).toEqual(OUTPUTS.map((k) => rollout[k]));
    }
  });
  test("gym eval reverify --force on the binary (reverify mode unknown, as NeMo Gym's)", async () => {
    const r = await reverifyPublished("math_with_code", joined, OUTPUTS, { force: true });
    expect({ code: r.code, stderr: r.code === 0 ? "" : r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(r.rows.map((row) => OUTPUTS.map((k) => row[k]))).toEqual(CURRENT.map((row) => OUTPUTS.map((k) => row[k])));
    expect((r.metrics as Row[])[0].agent_metrics["mean/reward"]).toBe(0.4);
  }, 120_000);
});

describe("math_with_code: end to end", () => {
  sandboxed("gym eval run --resources-server math_with_code against mock_model: the agent's execute_python runs in the sandbox, every row scored", async () => {
    const work = mkdtempSync(join(tmpdir(), "gym-mwc-run-"));
    try {
      const r = await gym(["eval", "run", "--resources-server", "math_with_code", "--model-type", "mock_model", "-o", join(work, "rollouts.jsonl")], { cwd: work });
      expect(r.stderr).toMatch(/Coverage: 5 of 5 rollouts scored \(5 succeeded\)/);
      expect(r.code).toBe(0);
      const rows = readFileSync(join(work, "rollouts.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Row);
      expect(rows.every((row) => row.agent_ref.name === "math_with_code_simple_agent")).toBe(true);
      const outputs = rows.flatMap((row) => row.response.output).filter((o: Row) => o.type === "function_call_output").map((o: Row) => JSON.parse(o.output));
      expect(outputs.length).toBeGreaterThan(0);
      expect(Object.keys(outputs[0])).toEqual(["success", "stdout", "stderr", "error_message", "result"]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 180_000);
});

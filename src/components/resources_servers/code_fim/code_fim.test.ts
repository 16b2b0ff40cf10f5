import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectSandbox } from "../../../sandbox/index.ts";
import { fullResponse, post, promptKey, readJsonlFile } from "../_common/testing.ts";
import { extractFimCode, postprocessCompletion, trimRepeatedHead, trimRepeatedTail } from "./extract.ts";
import createCodeFim from "./index.ts";

const dir = import.meta.dir;
const problems = join(dir, "_fixtures", "RandomSpanInfilling_example.jsonl");
const config = { split: "random_span", num_processes: 2, timeout: 3.0, problems_jsonl_fpath: problems };
const hasBwrap = (await detectSandbox()).kind === "bwrap";
if (!hasBwrap) console.warn("skip: code_fim sandbox tests because bubblewrap is not available (apt-get install bubblewrap)");
const sandboxed = hasBwrap ? test : test.skip;

const answer = (text: string) => fullResponse({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }] });
const params = { input: [{ role: "user", content: "fill in" }] };
// RandomSpanInfilling/HumanEval/2/1: the prefix ends "    return num", the suffix is "% 1.0\n"; the answer is "ber ".
const TRUNCATE = "RandomSpanInfilling/HumanEval/2/1";

describe("code_fim: extraction and clean-up (NeMo Skills' FIM pipeline)", () => {
  test("the last ```python block, unstripped; unclosed is empty; text before </think> is dropped", () => {
    expect(extractFimCode("```python\n  a = 1\n```\n```python\n    b\n```")).toBe("\n    b\n");
    expect(extractFimCode("```python\nx = 1")).toBe("");
    expect(extractFimCode("<think>```python\nbad\n```</think>\r\n```\nok\n")).toBe("");
    expect(extractFimCode("<think>```python\nbad\n```</think>```python\nok\n```")).toBe("\nok\n");
  });
  test("a repeated head of the prefix and tail of the suffix are cut; a lone shared space is not", () => {
    expect(trimRepeatedHead("def f():\n    x = ", "x = 1")).toBe("1");
    expect(trimRepeatedHead("a ", " b")).toBe(" b");
    expect(trimRepeatedTail("y = 2\n    return y", "    return y\n")).toBe("y = 2\n");
    expect(postprocessCompletion("\n    if", "    for x in y:\n    if", " x:\n")).toBe("");
  });
});

describe("code_fim: NeMo Gym's published rollouts", () => {
  sandboxed("example_rollouts.jsonl: every reward, status, completion and extraction re-scores exactly", async () => {
    const rows = new Map(readJsonlFile(dir, "data/example.jsonl").map((row) => [promptKey(row.responses_create_params as any), row]));
    const app = createCodeFim(config);
    const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl") as any[];
    expect(rollouts).toHaveLength(5);
    const fields = ["reward", "extracted_model_output", "extracted_model_code", "completion", "status", "passed", "metadata"];
    const replies = await Promise.all(rollouts.map((r) => post(app, "/verify", { ...rows.get(promptKey(r.responses_create_params))!, response: r.response })));
    replies.forEach((reply, i) => {
      expect(reply.status).toBe(200);
      expect(fields.map((f) => reply.body[f])).toEqual(fields.map((f) => rollouts[i][f]));
    });
    expect(Object.keys(replies[0]!.body)).toEqual(["responses_create_params", "response", ...fields]);
  }, 120_000);
});

const send = (app: ReturnType<typeof createCodeFim>, text: string, taskId = TRUNCATE) =>
  post(app, "/verify", { responses_create_params: params, response: answer(text), verifier_metadata: { task_id: taskId } });

describe("code_fim: verdicts", () => {
  sandboxed("the right span passes; a wrong one fails with the exception; a loop times out; guard and exits as upstream", async () => {
    const app = createCodeFim(config);
    const [right, wrong, loop, exit, remove] = await Promise.all([
      send(app, "```python\nber ```"),
      send(app, "```python\nber * 0 ```"),
      send(app, "```python\nber if [x for x in iter(int, 1) if x] else 0 ```"),
      send(app, "```python\nber + exit() ```"),
      send(app, "```python\nber + __import__('os').remove('x') ```"),
    ]);
    expect([right.body.reward, right.body.status, right.body.passed, right.body.completion]).toEqual([1, "passed", true, "ber "]);
    expect([wrong.body.reward, wrong.body.status]).toEqual([0, "failed: "]);
    expect([loop.body.reward, loop.body.status, loop.body.metadata]).toEqual([0, "timed out", null]);
    expect(exit.body.status).toBe("failed: 'NoneType' object is not callable");
    expect(remove.body.status).toBe("failed: 'NoneType' object is not callable");
  }, 120_000);

  sandboxed("a program that ignores the alarm is killed at the sandbox's wall clock: timed out, with the reason", async () => {
    const app = createCodeFim({ ...config, timeout: 1 });
    const hang = await send(app, "```python\nber + (__import__('signal').signal(14, 1), __import__('time').sleep(3600))[0] ```");
    expect([hang.body.reward, hang.body.status]).toEqual([0, "timed out"]);
    expect(hang.body.metadata).toEqual({ sandbox_reason: expect.stringMatching(/wall-clock limit/) });
  }, 120_000);

  test("a missing or unknown task id scores 0 with NeMo Gym's message; empty output scores 0", async () => {
    const app = createCodeFim(config);
    const none = await post(app, "/verify", { responses_create_params: params, response: answer("x") });
    expect([none.body.reward, none.body.passed, none.body.metadata]).toEqual([0, false, { error: "missing task_id in verifier_metadata" }]);
    const unknown = await send(app, "x", "RandomSpanInfilling/HumanEval/999/0");
    expect(unknown.body.metadata).toEqual({ error: "unknown task_id 'RandomSpanInfilling/HumanEval/999/0' for split 'random_span'" });
    const empty = await send(app, "");
    expect([empty.body.reward, empty.body.extracted_model_output, empty.body.status]).toEqual([0, null, null]);
  });
});

describe("code_fim: hostile spans (each would pass if its attack worked)", () => {
  sandboxed("reading host files, the network, writing outside, fork bomb, 50 GB, an output flood: all 0; a correct span still passes", async () => {
    const hostDir = mkdtempSync(join(tmpdir(), "gym-fim-hostile-"));
    const secret = join(hostDir, "secret.txt");
    writeFileSync(secret, "TOP-SECRET\n");
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.end("HELLO\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const tag = `fim-hostile-${process.pid}-${Date.now()}`;
    process.env.GYM_SANDBOX_TAG = tag;
    const spans: Record<string, string> = {
      "reading a host file": `ber if open(${JSON.stringify(secret)}).read() == 'TOP-SECRET\\n' else 0 `,
      "a socket to the host": `ber if __import__('socket').create_connection(('127.0.0.1', ${port}), timeout=2).recv(10) else 0 `,
      "writing outside": `ber if [open(p, 'w') for p in (${JSON.stringify(join(hostDir, "planted"))}, '/etc/planted', '/usr/planted')] else 0 `,
      "fork bomb": "ber if [__import__('posix').fork() for _ in iter(int, 1)] else 0 ",
      "50 GB": "ber if bytearray(50 * 1024**3) else 0 ",
      "output flood on stderr": "ber if [__import__('posix').write(2, b'x' * (1 << 20)) for _ in range(10240)] else 0 ",
      "a correct span": "ber ",
    };
    try {
      const app = createCodeFim({ ...config, memory_limit_mb: 512 });
      const names = Object.keys(spans);
      const replies = await Promise.all(names.map((name) => send(app, "```python\n" + spans[name] + "```")));
      replies.forEach((reply, i) => expect([names[i], reply.body.reward]).toEqual([names[i], names[i] === "a correct span" ? 1 : 0]));
      expect(connections).toBe(0);
      expect(existsSync(join(hostDir, "planted"))).toBe(false);
      expect(existsSync("/etc/planted") || existsSync("/usr/planted")).toBe(false);
      const left = readdirSync("/proc").filter((p) => /^\d+$/.test(p)).filter((p) => {
        try {
          return readFileSync(`/proc/${p}/environ`, "latin1").includes(`GYM_SANDBOX_TAG=${tag}`);
        } catch {
          return false;
        }
      });
      expect(left).toEqual([]);
    } finally {
      delete process.env.GYM_SANDBOX_TAG;
      server.close();
      rmSync(hostDir, { recursive: true, force: true });
    }
  }, 180_000);
});

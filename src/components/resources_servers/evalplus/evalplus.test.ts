import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { detectSandbox } from "../../../sandbox/index.ts";
import { fullResponse, post, promptKey, readJsonlFile } from "../_common/testing.ts";
import { extractCodeStrict } from "./extract.ts";
import createEvalPlus from "./index.ts";

const dir = import.meta.dir;
const problems = join(dir, "_fixtures", "HumanEvalPlus_0-4.jsonl");
const config = { dataset: "humaneval", num_processes: 2, problems_jsonl_fpath: problems };
const hasBwrap = (await detectSandbox()).kind === "bwrap";
if (!hasBwrap) console.warn("skip: evalplus sandbox tests because bubblewrap is not available (apt-get install bubblewrap)");
const sandboxed = hasBwrap ? test : test.skip;

const answer = (text: string) => fullResponse({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }] });
const params = { input: [{ role: "user", content: "complete" }] };

describe("evalplus: extraction", () => {
  test("the last ```python block, stripped; an unclosed block is empty; bare fences find the closing one (NeMo Gym's quirk)", () => {
    expect(extractCodeStrict("```python\na = 1\n```\n```\nb = 2\n```")).toBe("a = 1");
    // rfind("```") lands on the closing fence, after which no fence follows: empty, as in NeMo Gym.
    expect(extractCodeStrict("```\nb = 2\n```")).toBe("");
    expect(extractCodeStrict("```python\nx = 1")).toBe("");
    expect(extractCodeStrict("text\r\n```python\r\nx = 1\r\n```")).toBe("x = 1");
  });
});

describe("evalplus: NeMo Gym's published rollouts (base inputs of HumanEval/0–4)", () => {
  sandboxed("every reward, base_status and base_details re-score exactly", async () => {
    const rows = new Map(readJsonlFile(dir, "data/example.jsonl").map((row) => [promptKey(row.responses_create_params as any), row]));
    const app = createEvalPlus(config);
    const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl") as any[];
    expect(rollouts).toHaveLength(5);
    const replies = await Promise.all(rollouts.map((r) => post(app, "/verify", { ...rows.get(promptKey(r.responses_create_params))!, response: r.response })));
    replies.forEach((reply, i) => {
      const stored = rollouts[i]!;
      expect(reply.status).toBe(200);
      expect([reply.body.reward, reply.body.base_status, reply.body.is_correct, reply.body.extracted_model_code]).toEqual([stored.reward, stored.base_status, stored.is_correct, stored.extracted_model_code]);
      expect(reply.body.metadata.base_details).toEqual(stored.metadata.base_details);
      // The fixture has no plus inputs (the EvalPlus release file is not reachable offline): plus passes vacuously.
      expect([reply.body.plus_status, reply.body.metadata.plus_details]).toEqual(["pass", []]);
    });
    expect(Object.keys(replies[0]!.body)).toEqual(["responses_create_params", "response", "reward", "extracted_model_output", "extracted_model_code", "base_status", "plus_status", "is_correct", "is_correct_plus", "metadata"]);
  }, 120_000);
});

describe("evalplus: verdicts", () => {
  sandboxed("a wrong answer fails the inputs it gets wrong; a loop is cut at the per-input limit", async () => {
    const app = createEvalPlus(config);
    const send = (code: string) => post(app, "/verify", { responses_create_params: params, response: answer("```python\n" + code + "\n```"), verifier_metadata: { task_id: "HumanEval/2" } });
    const [wrong, loop, float] = await Promise.all([
      send("def truncate_number(number: float) -> float:\n    return 0.5"),
      send("def truncate_number(number: float) -> float:\n    while True: pass"),
      send("def truncate_number(number: float) -> float:\n    return number % 1.0 + 1e-9"),
    ]);
    expect([wrong.body.base_status, wrong.body.metadata.base_details, wrong.body.reward]).toEqual(["fail", [1, 0, 0], 0]);
    expect([loop.body.base_status, loop.body.metadata.base_details]).toEqual(["fail", [0, 0, 0]]);
    // Float outputs compare with atol 1e-6 (EvalPlus's rule when the problem's atol is 0).
    expect([float.body.base_status, float.body.reward]).toEqual(["pass", 1]);
  }, 120_000);

  test("a missing or unknown task id scores 0 with NeMo Gym's message", async () => {
    const app = createEvalPlus(config);
    const none = await post(app, "/verify", { responses_create_params: params, response: answer("x") });
    expect([none.body.reward, none.body.metadata]).toEqual([0, { error: "missing task_id in verifier_metadata" }]);
    const unknown = await post(app, "/verify", { responses_create_params: params, response: answer("x"), verifier_metadata: { task_id: "HumanEval/999" } });
    expect(unknown.body.metadata).toEqual({ error: "unknown task_id 'HumanEval/999' for dataset 'humaneval'" });
  });
});

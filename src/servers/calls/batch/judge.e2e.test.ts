// End to end on the compiled binary: an LLM-judged benchmark (simpleqa) with --batch — the policy's and the judge's
// calls both go into batches in `eval run`, and `eval reverify --batch` sends the judge pass as a batch — with the
// rewards of direct calls and no direct call.
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import { batchApiStandIn, type BatchApiStandIn } from "../../../testing/batch-api.ts";
import { ensureBinary, gym } from "../../../testing/binary.ts";

const JUDGE_KEY = "sk-judge";
let dir: string;
let served: ServedApp | undefined;
const lines = (path: string) => readFileSync(join(dir, path), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const rewards = (path: string) => Object.fromEntries(lines(path).map((r) => [`${r._ng_task_index}-${r._ng_rollout_index}`, r.reward]));

const responseOf = (id: string, model: string, text: string) => ({
  id, created_at: 1700000000, model, object: "response", parallel_tool_calls: true, tool_choice: "auto", tools: [], status: "completed",
  output: [{ id: `msg_${id}`, type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }],
  usage: { input_tokens: 5, input_tokens_details: { cached_tokens: 0 }, output_tokens: 3, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 8 },
});

/** The policy knows the even questions' code words; the judge grades "A" when the gold target is in the answer. */
async function models(request: Request): Promise<Response> {
  const body = (await request.json()) as { model: string; input?: { content: string }[]; messages?: { content: string }[] };
  const prompt = (body.messages ?? body.input ?? []).map((m) => m.content).join("\n");
  const i = Number(/question (\d+)/.exec(prompt)?.[1] ?? 0);
  if (body.model === "judge") {
    const verdict = /Gold target: (\S+)\nPredicted answer: [^\n]*\1/.test(prompt) ? "A" : "B";
    if (new URL(request.url).pathname.endsWith("/chat/completions")) return Response.json({ id: "c", object: "chat.completion", created: 0, model: "judge", choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: verdict } }] });
    return Response.json(responseOf(`j${i}`, "judge", verdict));
  }
  return Response.json(responseOf(`p${i}`, "policy", `The code word is ${i % 2 === 0 ? `answer-${i}` : "answer-x"}.`));
}

beforeAll(async () => {
  await ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "gym-batch-judge-"));
  let text = "";
  for (let i = 0; i < 4; i++) {
    const question = `What is the code word of question ${i}?`;
    text += `${JSON.stringify({ id: `q${i}`, question, expected_answer: `answer-${i}`, responses_create_params: { input: [{ role: "user", content: question }] } })}\n`;
  }
  writeFileSync(join(dir, "tasks.jsonl"), text);
}, 120_000);

afterEach(async () => {
  await served?.stop();
  served = undefined;
});

async function provider(): Promise<BatchApiStandIn> {
  const standIn = batchApiStandIn({ model: models });
  served = await serve(standIn.fetch);
  writeFileSync(join(dir, "judge.yaml"), `genrm_model:\n  responses_api_models:\n    openai_model:\n      entrypoint: app.py\n      openai_base_url: ${served.url}/v1\n      openai_api_key: ${JUDGE_KEY}\n      openai_model: judge\n`);
  return standIn;
}

const fast = ["+batch_send_delay_s=0.2", "+batch_poll_first_s=0.05", "+batch_poll_max_s=0.2"];
const evalRun = (out: string, extra: string[]) =>
  gym(["eval", "run", "--resources-server", "simpleqa", "--model-type", "openai_model", "--model", "policy", "--model-url", `${served!.url}/v1`, "--model-api-key", "sk-policy",
    "--config", "judge.yaml", "--input", "tasks.jsonl", "-o", `${out}/rollouts.jsonl`, ...fast, ...extra], { cwd: dir });

describe("--batch with an LLM judge (compiled binary)", () => {
  test("eval run --batch: the policy's and the judge's calls in batches, the rewards of direct calls", async () => {
    const direct = await provider();
    expect((await evalRun("direct", [])).code).toBe(0);
    expect(direct.stats.direct).toBe(8);
    await served!.stop();
    const batched = await provider();
    const r = await evalRun("batched", ["--batch"]);
    expect(r.code).toBe(0);
    expect(batched.stats.direct).toBe(0);
    expect(batched.stats.answered.size).toBe(8);
    expect(rewards("batched/rollouts.jsonl")).toEqual(rewards("direct/rollouts.jsonl"));
    expect(Object.values(rewards("batched/rollouts.jsonl")).filter((x) => x === 1)).toHaveLength(2);
  }, 60_000);

  test("eval reverify --batch: the judge pass goes out as one batch, with the same rewards", async () => {
    const standIn = await provider();
    const r = await gym(["eval", "reverify", "--batch", "--force", "--resources-server", "simpleqa", "--config", "judge.yaml", "--inputs", "direct/rollouts_materialized_inputs.jsonl",
      "--rollouts", "direct/rollouts.jsonl", "-o", "reverified.jsonl", ...fast], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("Batch API: 1 batch created");
    expect(standIn.stats.direct).toBe(0);
    expect(standIn.batches).toHaveLength(1);
    expect(rewards("unsafe_reverified.jsonl")).toEqual(rewards("direct/rollouts.jsonl"));
    expect(lines("reverified_batches.jsonl")[0].requests).toHaveLength(4);
  }, 60_000);
});

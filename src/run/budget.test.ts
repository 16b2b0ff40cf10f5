import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, type ServedApp } from "../runtime/serve.ts";
import { ensureBinary, gym } from "../testing/binary.ts";
import { writeMcqaDataset } from "../testing/datasets.ts";
import { usageModel } from "../testing/usage-model.ts";
import { CostTally, priceTable } from "../stages/cost/index.ts";
import { Budget } from "./budget.ts";
import { judgeEndpoint, policyEndpoint, writeSimpleQADataset } from "../testing/judge-mocks.ts";

const lines = (path: string) => readFileSync(path, "utf8").trimEnd().split("\n").filter(Boolean).map((l) => JSON.parse(l));
// The prices file of the test, USD per million tokens.
const PRICE = { input: 2, cached_input: 0.5, output: 8, reasoning: 12 };

/** The cost of one row priced by hand: uncached input, cached input, visible output, reasoning. */
function byHand(row: { response: { usage: { input_tokens: number; output_tokens: number; input_tokens_details: { cached_tokens: number }; output_tokens_details: { reasoning_tokens: number } } } }) {
  const u = row.response.usage;
  const cached = u.input_tokens_details.cached_tokens;
  const reasoning = u.output_tokens_details.reasoning_tokens;
  return ((u.input_tokens - cached) * PRICE.input + cached * PRICE.cached_input + (u.output_tokens - reasoning) * PRICE.output + reasoning * PRICE.reasoning) / 1e6;
}

let upstream: ServedApp;
let dir: string;

beforeAll(async () => {
  await ensureBinary();
  upstream = await serve(usageModel("acme-large-2025-01-31").fetch);
  dir = mkdtempSync(join(tmpdir(), "gym-cost-e2e-"));
  writeMcqaDataset(join(dir, "tasks.jsonl"), 8);
  writeFileSync(join(dir, "prices.yaml"), `# test prices\nacme-large: {input: ${PRICE.input}, cached_input: ${PRICE.cached_input}, output: ${PRICE.output}, reasoning: ${PRICE.reasoning}}\n`);
}, 120_000);

afterAll(async () => {
  await upstream?.stop();
});

function evalRun(output: string, extra: string[] = []) {
  return gym([
    "eval", "run", "--resources-server", "mcqa", "--model-type", "openai_model",
    "--model", "acme-large", "--model-url", `${upstream.url}/v1`, "--model-api-key", "sk-test",
    "--input", join(dir, "tasks.jsonl"), "--num-repeats", "2", "--output", output, ...extra,
  ], { cwd: dir });
}

describe("cost and budgets (compiled binary, a model endpoint that reports usage)", () => {
  let fullCost = 0;

  test("status --json cost equals the rollouts' usage priced by hand", async () => {
    const out = join(dir, "full", "rollouts.jsonl");
    const r = await evalRun(out, ["--concurrency", "4", "--prices", join(dir, "prices.yaml")]);
    expect(r.code).toBe(0);
    const rows = lines(out);
    expect(rows.length).toBe(16);
    fullCost = rows.reduce((sum, row) => sum + byHand(row), 0);
    expect(r.stderr).toContain("Cost: $");
    // The call path counted the same 16 calls the rows record.
    expect(r.stderr).toContain(`Model calls (this process, policy and judges): 16, ${rows.reduce((s, row) => s + row.response.usage.total_tokens, 0).toLocaleString("en-US")} tokens, $`);
    const status = await gym(["eval", "status", join(dir, "full"), "--json"]);
    expect(status.code).toBe(0);
    const cost = (Object.values(JSON.parse(status.stdout))[0] as { cost: Record<string, unknown> }).cost;
    expect(cost.total_usd as number).toBeCloseTo(fullCost, 12);
    expect(cost.policy_usd as number).toBeCloseTo(fullCost, 12);
    expect(cost.judge_usd).toBeNull();
    expect(cost.input_tokens).toBe(rows.reduce((s, row) => s + row.response.usage.input_tokens, 0));
    expect(cost.output_tokens).toBe(rows.reduce((s, row) => s + row.response.usage.output_tokens, 0));
    expect(cost.cached_input_tokens).toBe(16 * 20);
    expect(cost.reasoning_tokens).toBe(16 * 8);
    expect(cost.priced_models).toEqual(["acme-large-2025-01-31"]);
    expect(cost.unpriced_models).toEqual([]);
    // The run wrote the same totals beside its rollouts.
    expect(JSON.parse(readFileSync(join(dir, "full", "rollouts_cost.json"), "utf8")).total_usd).toBeCloseTo(fullCost, 12);
    // eval aggregate --cost prices the merged rows the same way.
    const agg = await gym(["eval", "aggregate", "--input-glob", out, "--output", join(dir, "merged", "rollouts.jsonl"), "--cost", "--prices", join(dir, "prices.yaml"), "--json"]);
    expect(agg.code).toBe(0);
    expect(JSON.parse(agg.stdout).cost.total_usd).toBeCloseTo(fullCost, 12);
    expect(JSON.parse(readFileSync(join(dir, "merged", "rollouts_cost.json"), "utf8")).input_tokens).toBe(cost.input_tokens as number);
  }, 120_000);

  test("without a price the cost shows tokens only, and a cost budget is refused before dispatch", async () => {
    const status = await gym(["eval", "status", join(dir, "full", "rollouts.jsonl"), "--json", "--prices", join(dir, "tasks.jsonl")]);
    expect(status.code).toBe(1);
    expect(status.stderr).toContain("tasks.jsonl");
    const out = join(dir, "unpriced", "rollouts.jsonl");
    const r = await evalRun(out, ["--concurrency", "2", "--max-cost", "1"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("'acme-large' has none");
    expect(() => readFileSync(out)).toThrow();
    const tokensOnly = await evalRun(join(dir, "tokens", "rollouts.jsonl"), ["--concurrency", "2", "--limit", "2"]);
    expect(tokensOnly.code).toBe(0);
    expect(tokensOnly.stderr).toContain("Cost: no price for acme-large-2025-01-31;");
    expect(tokensOnly.stderr).not.toMatch(/Cost: \$/);
  }, 120_000);

  test("--max-cost at half the cost exits 77 with some rollouts; --resume with a larger budget completes, each once", async () => {
    const out = join(dir, "budget", "rollouts.jsonl");
    const half = await evalRun(out, ["--concurrency", "2", "--prices", join(dir, "prices.yaml"), "--max-cost", String(fullCost / 2)]);
    expect(half.stderr).toContain("Stopped at the budget");
    expect(half.code).toBe(77);
    const partial = lines(out);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(16);
    expect(partial.reduce((s, row) => s + byHand(row), 0)).toBeLessThanOrEqual(fullCost / 2);

    const rest = await evalRun(out, ["--concurrency", "2", "--prices", join(dir, "prices.yaml"), "--max-cost", String(fullCost * 2), "--resume"]);
    expect(rest.code).toBe(0);
    const all = lines(out);
    expect(all.length).toBe(16);
    expect(new Set(all.map((row) => `${row._ng_task_index}-${row._ng_rollout_index}`)).size).toBe(16);
  }, 120_000);

  test("--max-tokens stops the same way", async () => {
    const out = join(dir, "tokens-budget", "rollouts.jsonl");
    const r = await evalRun(out, ["--concurrency", "1", "--max-tokens", "600"]);
    expect(r.code).toBe(77);
    const rows = lines(out);
    const used = rows.reduce((s, row) => s + row.response.usage.input_tokens + row.response.usage.output_tokens, 0);
    expect(rows.length).toBeGreaterThan(0);
    expect(used).toBeLessThanOrEqual(600);
  }, 120_000);

  test("judge calls are counted by the call path, and --max-tokens counts them", async () => {
    // simpleqa keeps only the judge's text in its rows: its tokens are known from the call path alone.
    const judge = judgeEndpoint();
    const withUsage = async (request: Request) => {
      const reply = await judge.fetch(request);
      const body = (await reply.json()) as Record<string, unknown>;
      return Response.json(body.object === "chat.completion" ? { ...body, usage: { prompt_tokens: 50, completion_tokens: 5, total_tokens: 55 } } : body);
    };
    const [policy, judged] = await Promise.all([serve(policyEndpoint()), serve(withUsage)]);
    try {
      writeSimpleQADataset(join(dir, "qa.jsonl"), 6);
      writeFileSync(join(dir, "judge.yaml"), `genrm_model:\n  responses_api_models:\n    openai_model:\n      entrypoint: app.py\n      openai_base_url: ${judged.url}/v1\n      openai_api_key: sk-j\n      openai_model: judge\n`);
      const qa = (out: string, extra: string[]) => gym(["eval", "run", "--resources-server", "simpleqa", "--model-type", "openai_model", "--model", "policy", "--model-url", `${policy.url}/v1`,
        "--model-api-key", "sk-p", "--config", "judge.yaml", "--input", "qa.jsonl", "--concurrency", "1", "-o", out, ...extra], { cwd: dir });
      const full = await qa("qa/rollouts.jsonl", []);
      expect(full.code).toBe(0);
      const policyTokens = lines(join(dir, "qa", "rollouts.jsonl")).reduce((s, row) => s + row.response.usage.total_tokens, 0);
      expect(full.stderr).toContain(`Model calls (this process, policy and judges): 12, ${(policyTokens + 6 * 55).toLocaleString("en-US")} tokens`);
      // A budget the rows alone would never reach: policy tokens of all six fit, judge tokens make it stop.
      const budget = await qa("qa-budget/rollouts.jsonl", ["--max-tokens", String(policyTokens + 55)]);
      expect(budget.code).toBe(77);
      expect(lines(join(dir, "qa-budget", "rollouts.jsonl")).length).toBeLessThan(6);
    } finally {
      await Promise.all([policy.stop(), judged.stop()]);
    }
  }, 120_000);
});

describe("Budget (unit)", () => {
  const prices = { ...priceTable(), m: { input: 1_000_000, output: 0 } }; // $1 per input token: easy sums
  const row = (input: number) => ({ response: { model: "m", usage: { input_tokens: input, output_tokens: 0 } } });
  const plan = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `${i}-0`, row: {}, attempt: 0 }));

  test("the first rollout runs alone; then up to the budget at the dearest rollout seen; the rest stays", async () => {
    const budget = new Budget({ maxCostUsd: 10 }, prices);
    const gate = budget.gate(plan(10), new AbortController().signal);
    await gate.next();
    let second = false;
    const pending = gate.next().then(() => (second = true));
    await Bun.sleep(5);
    expect(second).toBe(false); // waits: no rollout has said what it costs
    budget.record(row(2));
    await pending;
    // $4 spent, $2 a rollout: three more fit in flight ($4 + 3 × $2 = $10); a fourth could pass $10.
    budget.record(row(2));
    for (let i = 0; i < 3; i++) {
      expect(budget.decide()).toBe("go");
      await gate.next();
    }
    expect(budget.decide()).toBe("stop");
    expect(budget.stoppedBy).toContain("--max-cost 10");
    expect((await gate.next()).done).toBe(true);
  });

  test("earlier invocations' rows count, and say what a rollout costs", () => {
    const budget = new Budget({ maxCostUsd: 10 }, prices);
    for (let i = 0; i < 4; i++) budget.seed(row(2));
    expect(budget.decide()).toBe("go"); // 8 + 2 = 10
    const tight = new Budget({ maxCostUsd: 9 }, prices);
    for (let i = 0; i < 4; i++) tight.seed(row(2));
    expect(tight.decide()).toBe("stop");
  });

  test("a row is read once: the budget adds it to the caller's tally of this invocation, beside the earlier rows", () => {
    const invocation = new CostTally(prices);
    const budget = new Budget({ maxCostUsd: 100 }, prices, invocation);
    budget.seed(row(5));
    let reads = 0;
    const counted = { get response() { reads++; return row(3).response; } };
    budget.record(counted);
    expect(reads).toBe(1);
    expect(invocation.spentUsd).toBe(3); // this invocation's row only
    expect(budget.tally).toEqual({ spentUsd: 8, spentTokens: 8 }); // the whole run's
    expect(budget.spent().usd).toBe(8);
  });

  test("rollouts that report no usage stop a budgeted run after a few; an abort frees a waiting gate", async () => {
    const budget = new Budget({ maxTokens: 100 }, prices);
    const gate = budget.gate(plan(10), new AbortController().signal);
    for (let i = 0; i < 3; i++) {
      expect((await gate.next()).done).toBe(false);
      budget.record({ response: { output: [] } });
    }
    expect((await gate.next()).done).toBe(true);
    expect(budget.stoppedBy).toContain("none reported token usage");

    const abort = new AbortController();
    const waiting = new Budget({ maxTokens: 100 }, prices);
    const g = waiting.gate(plan(3), abort.signal);
    await g.next();
    const next = g.next();
    abort.abort();
    expect((await next).done).toBe(true);
  });
});

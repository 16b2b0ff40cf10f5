import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUILTIN_PRICES, CostTally, costLine, loadPricesFile, priceFor, priceTable, tallyFiles, usageRecords, usdOf } from "./index.ts";

const dir = mkdtempSync(join(tmpdir(), "gym-cost-unit-"));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const usage = (input: number, cached: number, output: number, reasoning: number) => ({ input_tokens: input, input_tokens_details: { cached_tokens: cached }, output_tokens: output, output_tokens_details: { reasoning_tokens: reasoning }, total_tokens: input + output });

describe("prices", () => {
  test("a model is found by its exact name, without a provider prefix, or without a release date", () => {
    expect(priceFor("gpt-4o", BUILTIN_PRICES)).toBe(BUILTIN_PRICES["gpt-4o"]!);
    expect(priceFor("openai/gpt-4o-2024-08-06", BUILTIN_PRICES)).toBe(BUILTIN_PRICES["gpt-4o"]!);
    expect(priceFor("claude-sonnet-4-20250514", BUILTIN_PRICES)).toBe(BUILTIN_PRICES["claude-sonnet-4"]!);
    expect(priceFor("my-local-model", BUILTIN_PRICES)).toBeUndefined();
  });

  test("a prices file overrides the built-in table and adds models", () => {
    const table = priceTable(file("p.yaml", "gpt-4o: {input: 1, output: 2}\nlocal/qwen3: {input: 0.1, output: 0.2, cached_input: 0.05, reasoning: 0.3}\n"));
    expect(table["gpt-4o"]).toEqual({ input: 1, output: 2 });
    expect(priceFor("local/qwen3", table)).toEqual({ input: 0.1, output: 0.2, cached_input: 0.05, reasoning: 0.3 });
    expect(table["gpt-4.1"]).toEqual(BUILTIN_PRICES["gpt-4.1"]!);
  });

  test("a bad prices file names the file, the field and what was expected", () => {
    expect(() => loadPricesFile(file("bad1.yaml", "m: {input: -1, output: 2}\n"))).toThrow("bad1.yaml: m.input: expected a number ≥ 0");
    expect(() => loadPricesFile(file("bad2.yaml", "m: {input: 1}\n"))).toThrow("m.output: expected a number (it is required)");
    expect(() => loadPricesFile(file("bad3.yaml", "m: {input: 1, output: 2, outptu: 3}\n"))).toThrow("m.outptu: expected one of input, output, cached_input, reasoning, tiers");
    expect(() => loadPricesFile(file("bad4.yaml", "- m\n"))).toThrow("expected a mapping of model names");
    expect(() => loadPricesFile(join(dir, "missing.yaml"))).toThrow("Prices file not found");
  });

  test("uncached input, cached input, visible output and reasoning each at their price; tiers by prompt size", () => {
    const price = { input: 2, cached_input: 0.5, output: 8, reasoning: 12, tiers: [{ above_input_tokens: 1000, input: 4, output: 16 }] };
    const t = { input_tokens: 100, cached_input_tokens: 20, output_tokens: 50, reasoning_tokens: 10 };
    expect(usdOf(t, price)).toBeCloseTo((80 * 2 + 20 * 0.5 + 40 * 8 + 10 * 12) / 1e6, 15);
    // Above the tier: its prices, its missing cached/reasoning prices falling back to its input/output.
    const big = { input_tokens: 2000, cached_input_tokens: 0, output_tokens: 10, reasoning_tokens: 0 };
    expect(usdOf(big, price)).toBeCloseTo((2000 * 4 + 10 * 16) / 1e6, 15);
    expect(usdOf({ ...t, cached_input_tokens: 0, reasoning_tokens: 0 }, { input: 1, output: 1 })).toBeCloseTo(150 / 1e6, 15);
  });
});

describe("usage and tallies", () => {
  test("policy usage in both API forms, judge usage from judge_evaluations", () => {
    const row = {
      response: { model: "gpt-4o", usage: usage(100, 20, 50, 10) },
      judge_evaluations: [{ responses_create_params: { model: "x" }, response: { model: "gpt-4o-mini", usage: usage(300, 0, 5, 0) } }],
    };
    expect(usageRecords(row)).toEqual([
      { role: "policy", model: "gpt-4o", input_tokens: 100, cached_input_tokens: 20, output_tokens: 50, reasoning_tokens: 10 },
      { role: "judge", model: "gpt-4o-mini", input_tokens: 300, cached_input_tokens: 0, output_tokens: 5, reasoning_tokens: 0 },
    ]);
    const chat = { response: { model: "m", usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } } };
    expect(usageRecords(chat)).toEqual([{ role: "policy", model: "m", input_tokens: 7, cached_input_tokens: 0, output_tokens: 3, reasoning_tokens: 0 }]);
    expect(usageRecords({ response: { output: [] }, judge_evaluations: null })).toEqual([]);
  });

  test("NeMo Gym's published math_with_judge rollouts: policy and judge priced apart (gpt-5 at the built-in price)", async () => {
    const rollouts = join(import.meta.dir, "../../components/resources_servers/math_with_judge/data/example_rollouts.jsonl");
    const cost = (await tallyFiles([rollouts], priceTable())).summary();
    expect(cost.priced_models).toEqual(["gpt-5-2025-08-07"]);
    expect(cost.unpriced_models).toEqual([]);
    expect(cost.judge.input_tokens).toBeGreaterThan(0);
    expect(cost.total_usd!).toBeCloseTo(cost.policy_usd! + cost.judge_usd!, 9);
    // The first row by hand: policy 84 in / 4303 out (4288 reasoning), judge 302 in / 659 out, gpt-5 at 1.25 / 10.
    const first = new CostTally(priceTable());
    const text = readFileSync(rollouts, "utf8");
    first.add(JSON.parse(text.slice(0, text.indexOf("\n"))));
    const s = first.summary();
    expect(s.policy_usd!).toBeCloseTo((84 * 1.25 + 4303 * 10) / 1e6, 12);
    expect(s.judge_usd!).toBeCloseTo((302 * 1.25 + 659 * 10) / 1e6, 12);
  });

  test("a model with no price shows tokens only, never a made-up $", () => {
    const tally = new CostTally(priceTable());
    tally.add({ response: { model: "my-local-model", usage: usage(10, 0, 5, 0) } });
    const cost = tally.summary();
    expect(cost.total_usd).toBeNull();
    expect(cost.policy_usd).toBeNull();
    expect(cost.unpriced_models).toEqual(["my-local-model"]);
    expect(cost.input_tokens).toBe(10);
    expect(costLine(cost)).toBe("no price for my-local-model; 10 tokens in (0 cached), 5 out (0 reasoning)");
    // Priced and unpriced together: $ for what has a price, the rest named.
    tally.add({ response: { model: "gpt-4o", usage: usage(1000, 0, 0, 0) } });
    const mixed = tally.summary();
    expect(mixed.total_usd).toBeCloseTo(0.0025, 12);
    expect(costLine(mixed)).toContain("tokens only for my-local-model");
  });

  test("a row the response cache answered entirely spent nothing", () => {
    const tally = new CostTally(priceTable());
    const row = { response: { model: "gpt-4o", usage: usage(1000, 0, 100, 0) } };
    tally.add({ ...row, _ng_response_cache: { hits: 2, misses: 0 } });
    expect(tally.summary()).toMatchObject({ total_usd: null, input_tokens: 0, rows_from_cache: 1, rows_with_usage: 0 });
    // A partly cached row counts whole (the split per call is not in the row).
    tally.add({ ...row, _ng_response_cache: { hits: 1, misses: 1 } });
    expect(tally.summary().total_usd).toBeCloseTo((1000 * 2.5 + 100 * 10) / 1e6, 12);
  });
});

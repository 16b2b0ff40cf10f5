import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyPrompt, parsePromptConfig } from "./prompt.ts";
import { renderDataset } from "./render.ts";

const config = parsePromptConfig(`system: "Put the answer in \\\\boxed{{}}."\nuser: "Q: {question} ({n})"\nextra: ignored\n`, "p.yaml");

describe("prompt configs", () => {
  test("system then user, brace escapes, other create params kept, row not mutated", () => {
    const row = { question: "2+2?", n: 3, responses_create_params: { temperature: 0.5, tools: [] } };
    const out = applyPrompt(row, config, "x:1");
    expect(out.responses_create_params).toEqual({
      temperature: 0.5,
      tools: [],
      input: [
        { role: "system", content: "Put the answer in \\boxed{}." },
        { role: "user", content: "Q: 2+2? (3)" },
      ],
    });
    expect(row.responses_create_params).toEqual({ temperature: 0.5, tools: [] });
  });

  test("values print as Python str(): True, None, lists", () => {
    const c = parsePromptConfig(`user: "{a} {b} {c}"`, "p.yaml");
    const out = applyPrompt({ a: true, b: null, c: ["x", 1] }, c, "x:1") as { responses_create_params: { input: { content: string }[] } };
    expect(out.responses_create_params.input[0]!.content).toBe("True None ['x', 1]");
  });

  test("a missing field names the field and the row's fields", () => {
    expect(() => applyPrompt({ q: 1 }, config, "raw.jsonl:4")).toThrow("raw.jsonl:4: the prompt template references field 'question' but the row only has fields: ['q']");
  });

  test("errors: missing user, non-string system, unsupported placeholders, stray braces", () => {
    expect(() => parsePromptConfig(`system: hi`, "p.yaml")).toThrow("p.yaml: key 'user' must be a string template");
    expect(() => parsePromptConfig(`user: x\nsystem: [1]`, "p.yaml")).toThrow("key 'system' must be a string template");
    for (const bad of ["{a[0]}", "{a.b}", "{x!r}", "{x:>10}", "{}", "{0}"]) {
      expect(() => parsePromptConfig(`user: "${bad}"`, "p.yaml")).toThrow("the prompt template has the placeholder");
    }
    expect(() => parsePromptConfig(`user: "a } b"`, "p.yaml")).toThrow("a single '}'");
    expect(() => parsePromptConfig(`user: "a { b"`, "p.yaml")).toThrow("never closed");
    expect(() => parsePromptConfig(`- a`, "p.yaml")).toThrow("must be a mapping");
  });
});

describe("dataset render", () => {
  test("writes every row with input and prompt_config_used, Python json.dumps layout", async () => {
    const dir = mkdtempSync(join(tmpdir(), "render-"));
    writeFileSync(join(dir, "raw.jsonl"), `{"question":"caf\\u00e9","n":1}\n\n{"question":"b","n":2,"responses_create_params":{"input":[]}}\n`);
    const result = await renderDataset(join(dir, "raw.jsonl"), config, join(dir, "sub", "out.jsonl"));
    expect(result.rows).toBe(2);
    const lines = readFileSync(join(dir, "sub", "out.jsonl"), "utf8").split("\n");
    expect(lines[0]).toBe(
      `{"question": "caf\\u00e9", "n": 1, "responses_create_params": {"input": [{"role": "system", "content": "Put the answer in \\\\boxed{}."}, {"role": "user", "content": "Q: caf\\u00e9 (1)"}]}, "prompt_config_used": "p.yaml"}`,
    );
    expect(lines.length).toBe(3);
  });

  test("rows that already have an input are all named, and the output file is not written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "render-"));
    const rows = [{ question: "a", n: 1 }, { question: "b", n: 2, responses_create_params: { input: "x" } }, { question: "c", n: 3 }, { question: "d", n: 4, responses_create_params: { input: [{ role: "user", content: "y" }] } }];
    writeFileSync(join(dir, "raw.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n"));
    await expect(renderDataset(join(dir, "raw.jsonl"), config, join(dir, "out.jsonl"))).rejects.toThrow("Violating rows (0-based): [1, 3]");
    expect(existsSync(join(dir, "out.jsonl"))).toBe(false);
  });
});

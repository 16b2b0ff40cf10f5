import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { ResponseCreateParamsSchema, ResponseSchema, type JsonObject } from "./responses.ts";
import { dumpResponse, dumpResponseCreateParams } from "./responses-dump.ts";
import { quickCreateParams, quickResponse } from "./responses-quick.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures");

/** `responses_create_params` and `response` objects from every rollout-shaped JSONL fixture in the repository. */
function seeds(): { params: JsonObject[]; responses: JsonObject[] } {
  const params: JsonObject[] = [];
  const responses: JsonObject[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".jsonl") && statSync(path).size < 1_000_000) {
        for (const line of readFileSync(path, "utf8").split("\n")) {
          if (!line.includes('"responses_create_params"')) continue;
          let row: JsonObject;
          try {
            row = JSON.parse(line);
          } catch {
            continue;
          }
          if (row.responses_create_params && typeof row.responses_create_params === "object") params.push(row.responses_create_params as JsonObject);
          if (row.response && typeof row.response === "object") responses.push(row.response as JsonObject);
        }
      }
    }
  };
  walk(FIXTURES);
  return { params, responses };
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

const ODD_VALUES: unknown[] = [null, undefined, true, false, 0, 1.5, -1, NaN, Infinity, "", "auto", "message", "assistant", "user", "function", "output_text", "reasoning", "function_call", "none", "high", [], [1], {}, { type: "x" }, { id: "i" }, { text: "t" }];
const ODD_KEYS = ["type", "role", "content", "id", "text", "annotations", "refusal", "call_id", "name", "arguments", "output", "summary", "parameters", "strict", "description", "effort", "input", "tools", "tool_choice", "usage", "input_tokens", "cached_tokens", "bogus", "__proto__", "constructor"];

/** A deep copy of `value` with one random change somewhere inside it. */
function mutate(value: unknown, next: () => number): unknown {
  const copy = structuredClone(value);
  const nodes: (JsonObject | unknown[])[] = [];
  const collect = (x: unknown) => {
    if (x && typeof x === "object") {
      nodes.push(x as JsonObject);
      for (const child of Object.values(x)) collect(child);
    }
  };
  collect(copy);
  const node = nodes[Math.floor(next() * nodes.length)]!;
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const odd = () => structuredClone(pick(ODD_VALUES));
  const keys = Object.keys(node);
  const r = next();
  if (Array.isArray(node)) {
    if (r < 0.4 && node.length) node[Math.floor(next() * node.length)] = odd();
    else if (r < 0.7) node.push(odd());
    else node.length = Math.max(0, node.length - 1);
  } else if (r < 0.35 && keys.length) node[pick(keys)] = odd();
  else if (r < 0.6 && keys.length) delete node[pick(keys)];
  else Object.defineProperty(node, pick(ODD_KEYS), { value: odd(), enumerable: true, writable: true, configurable: true });
  return copy;
}

describe("quick Responses checks never accept what valibot refuses", () => {
  const { params, responses } = seeds();
  const cases: [string, (x: unknown) => boolean, v.GenericSchema, JsonObject[]][] = [
    ["responses_create_params", quickCreateParams, ResponseCreateParamsSchema, [...params, ...params.map(dumpResponseCreateParams)]],
    ["response", quickResponse, ResponseSchema, [...responses, ...responses.map(dumpResponse)]],
  ];

  for (const [label, quick, schema, values] of cases) {
    test(`${label}: fixtures as stored and as dumped`, () => {
      expect(values.length).toBeGreaterThan(50);
      let quickOk = 0;
      let schemaOk = 0;
      for (const value of values) {
        const valid = v.safeParse(schema, value).success;
        if (quick(value)) {
          quickOk++;
          expect(valid).toBe(true);
        }
        if (valid) schemaOk++;
      }
      // The quick path must cover the shapes seen in practice, not just be safe.
      expect(quickOk).toBeGreaterThan(0.95 * schemaOk);
    });

    test(`${label}: thousands of random one-point changes`, () => {
      const next = rng(label.length);
      let accepted = 0;
      let refused = 0;
      for (let i = 0; i < 6000; i++) {
        const value = mutate(values[Math.floor(next() * values.length)], next);
        const valid = v.safeParse(schema, value).success;
        if (quick(value)) {
          accepted++;
          if (!valid) throw new Error(`quick accepted what valibot refuses: ${JSON.stringify(value).slice(0, 2000)}`);
        } else if (!valid) refused++;
      }
      expect(accepted).toBeGreaterThan(500);
      expect(refused).toBeGreaterThan(500);
    });
  }
});

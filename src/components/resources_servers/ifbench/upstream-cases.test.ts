import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { readJsonFile } from "../_common/testing.ts";
import { checkKwargs } from "../_instructions/kwargs.ts";
import { IFBENCH_REGISTRY } from "./index.ts";

const cases = readJsonFile<any[]>(join(import.meta.dir, "../../../../fixtures/instructions"), "ifbench_upstream_cases.json");

describe("IFBench: allenai/IFBench instructions_test.py cases (pinned commit c6767a1)", () => {
  test("143 cases over 49 instruction ids", () => {
    expect([cases.length, new Set(cases.map((c) => c.instruction_id)).size]).toEqual([143, 49]);
  });
  for (const c of cases) {
    test(`${c.id} ${c.test} ${c.instruction_id} → ${c.expected}`, () => {
      const def = IFBENCH_REGISTRY[c.instruction_id]!;
      expect(def.build(checkKwargs(def.params, c.kwargs).kwargs, { prompt: "" })(c.response)).toBe(c.expected);
    });
  }
});

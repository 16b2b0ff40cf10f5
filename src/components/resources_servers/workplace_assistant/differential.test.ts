import { describe, expect, test } from "bun:test";
import { PyFloat } from "../../../metrics/pyjson.ts";
import { readJsonFile } from "../_common/testing.ts";
import { callTool, freshWorkplace, sameFinalState } from "./index.ts";

interface Action {
  name: string;
  arguments: string;
}
interface Vectors {
  cases: { actions: Action[]; outputs: ({ output: unknown } | { raises: string })[] }[];
  pairs: { predicted: number; ground_truth: Action[]; reward: number }[];
}
// `differential.py 7 160 4 differential.json` and `differential.py 11 240 8 differential_long.json`.
const files = ["differential.json", "differential_long.json"];

// What the tool answered, as JSON (a Python float 4.0 reads back as 4 on both sides; NaN as null, as pydantic writes it).
const asJson = (x: unknown) => JSON.parse(JSON.stringify(x ?? null, (_k, v) => (v instanceof PyFloat ? v.value : v)));

for (const file of files) {
const vectors = readJsonFile<Vectors>(import.meta.dir, `_fixtures/${file}`);
describe(`workplace_assistant: differential vectors from NeMo Gym's tools (pandas 2.3.3; _fixtures/${file})`, () => {
  test(`${vectors.cases.length} seeded action sequences: every output, and every call that raises, as NeMo Gym's`, async () => {
    let compared = 0;
    for (const [i, c] of vectors.cases.entries()) {
      const w = await freshWorkplace();
      for (const [j, action] of c.actions.entries()) {
        const expected = c.outputs[j]!;
        const where = `case ${i}, action ${j}: ${action.name} ${action.arguments}`;
        let got: unknown;
        let raised: string | undefined;
        try {
          got = asJson(callTool(w, action.name, JSON.parse(action.arguments)));
        } catch (e) {
          raised = (e as Error).name;
        }
        if ("raises" in expected) expect({ where, raised: raised !== undefined }).toEqual({ where, raised: true });
        else expect({ where, got }).toEqual({ where, got: expected.output });
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(300);
  });

  test(`${vectors.pairs.length} predicted/ground-truth pairs: the reward is NeMo Gym's is_correct`, async () => {
    for (const [i, p] of vectors.pairs.entries()) {
      const predicted = vectors.cases[p.predicted]!.actions.map((a) => ({ type: "function_call", ...a }));
      const reward = (await sameFinalState(predicted, p.ground_truth)) ? 1 : 0;
      expect({ pair: i, reward }).toEqual({ pair: i, reward: p.reward });
    }
  });
});
}

/**
 * ruler (NVIDIA's RULER synthetic long-context tasks): the stripped reply is searched, case-insensitively, for the
 * row's `outputs`: the share found (every task but QA), or 1 when any is found (`qa_1`, `qa_2`). The score is also
 * written under the row's subset name (`vt`, `niah_single_1`, …), the other subsets null.
 */
import { pyFloat } from "../../../metrics/pyjson.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { outputText } from "../_common/output.ts";
import { PyException } from "../_python/errors.ts";
import { pyStrip } from "../_python/text.ts";

/** The response's per-subset score fields, in NeMo Gym's order. */
export const SUBSETS = ["cwe", "fwe", "niah_multikey_1", "niah_multikey_2", "niah_multikey_3", "niah_multiquery", "niah_multivalue", "niah_single_1", "niah_single_2", "niah_single_3", "qa_1", "qa_2", "vt"];

/** NeMo Skills' `string_match_part` (any reference in the prediction) and `string_match_all` (the share that are). */
export function rulerScore(prediction: string, refs: string[], subset: string): number {
  const pred = prediction.toLowerCase();
  const hits = refs.map((r) => (pred.includes(r.toLowerCase()) ? 1 : 0));
  if (subset === "qa_1" || subset === "qa_2") {
    if (hits.length === 0) throw new PyException("ValueError", "max() arg is an empty sequence");
    return Math.max(...hits);
  }
  if (hits.length === 0) throw new PyException("ZeroDivisionError", "division by zero");
  return hits.reduce<number>((a, b) => a + b, 0) / hits.length;
}

export default defineResourcesServer({
  name: "ruler",
  className: "RulerResourcesServer",
  verify: {
    request: { fields: { outputs: py.list(py.str()), length: py.int(), subset: py.str() } },
    response: ["outputs", "length", "subset", ...SUBSETS],
    handler(body) {
      const subset = body.subset as string;
      const reward = rulerScore(pyStrip(outputText(body.response as JsonObject)), body.outputs as string[], subset);
      return { reward, ...(SUBSETS.includes(subset) ? { [subset]: pyFloat(reward) } : {}) };
    },
  },
});

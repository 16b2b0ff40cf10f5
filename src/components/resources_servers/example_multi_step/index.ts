/** example_multi_step: synonym-value tools; the reward checks the arguments of the last `extract_synonym_values` call. */
import type { JsonObject } from "../../../protocol/responses.ts";
import { pyFloat } from "../../../metrics/pyjson.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { validateModel } from "../../../servers/resources/fields.ts";
import { outputItems } from "../_common/output.ts";
import { PyException } from "../_python/errors.ts";
import { pyEquals, pyIn, pyJsonLoads, pySet } from "../_python/values.ts";

/** The `synonym_values` of the last `extract_synonym_values` call ([] when there is none); bad JSON raises (500). */
export function lastExtractedValues(response: JsonObject): unknown[] {
  const items = outputItems(response);
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.type !== "function_call" || item.name !== "extract_synonym_values") continue;
    const args = pyJsonLoads(item.arguments as string) as JsonObject;
    if (args === null || typeof args !== "object" || !Object.hasOwn(args, "synonym_values")) throw new PyException("KeyError", "synonym_values");
    return args.synonym_values as unknown[];
  }
  return [];
}

// The response model declares parsed_synonym_values: List[int]; pydantic coerces ("5" → 5) or fails (500).
const PARSED = { fields: { parsed_synonym_values: py.list(py.int()) } };

export default defineResourcesServer({
  name: "example_multi_step",
  className: "ExampleMultiStepResourcesServer",
  verify: {
    request: {
      fields: {
        id: py.int(),
        expected_synonym_values: py.list(py.int()),
        expected_synonyms: py.list(py.str()),
        minefield_label: py.str(),
        minefield_label_value: py.int(),
      },
    },
    response: ["parsed_synonym_values", "accuracy", "set_overlap", "original_term_minefield_hit", "order_instruction_following_failure"],
    handler(body) {
      const expected = body.expected_synonym_values as number[];
      const actual = lastExtractedValues(body.response as JsonObject);
      if (!Array.isArray(actual)) throw new PyException("TypeError", "'int' object is not iterable");
      const accuracy = pyEquals(expected, actual);
      const expectedSet = pySet(expected);
      const overlapCount = pySet(actual).filter((x) => pyIn(x, expectedSet)).length;
      if (expected.length === 0) throw new PyException("ZeroDivisionError", "division by zero");
      const setOverlap = overlapCount / expected.length;
      const parsed = validateModel(PARSED, { parsed_synonym_values: actual }, []);
      if (parsed.issues.length > 0) {
        throw new PyException("ValidationError", `1 validation error for ExampleMultiStepVerifyResponse\n${parsed.issues[0]!.loc.join(".")}\n  ${parsed.issues[0]!.msg}`);
      }
      return {
        reward: accuracy ? 1 : 0,
        parsed_synonym_values: parsed.value.parsed_synonym_values,
        accuracy,
        set_overlap: pyFloat(setOverlap),
        original_term_minefield_hit: pyIn(body.minefield_label, actual) || pyIn(body.minefield_label_value, actual),
        order_instruction_following_failure: !accuracy && setOverlap === 1,
      };
    },
  },
  tools: {
    get_synonym_value: {
      request: { fields: { synonym: py.str() } },
      handler: ({ synonym }) => {
        let sum = 0;
        for (const ch of synonym as string) sum += ch.codePointAt(0)!;
        return { synonym_value: sum };
      },
    },
    extract_synonym_values: {
      request: { fields: { synonym_values: py.list(py.int()) } },
      handler: () => ({ success: true }),
    },
  },
});

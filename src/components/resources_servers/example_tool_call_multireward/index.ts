/** example_tool_call_multireward: three 0/1 components (correctness, schema_valid, format) summed into the reward. */
import type { JsonObject } from "../../../protocol/responses.ts";
import { pyFloat } from "../../../metrics/pyjson.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { functionCalls, outputItems } from "../_common/output.ts";
import { PyException } from "../_python/errors.ts";
import { pyEquals, pyJsonLoads } from "../_python/values.ts";

const isObject = (x: unknown): x is JsonObject => x !== null && typeof x === "object" && !Array.isArray(x);

/** (parsed arguments, whether they are a JSON object); unparseable → ({}, false). */
export function parseArguments(args: unknown): [JsonObject, boolean] {
  if (isObject(args)) return [args, true];
  if (typeof args !== "string") return [{}, false];
  try {
    const value = pyJsonLoads(args);
    return isObject(value) ? [value, true] : [{}, false];
  } catch (error) {
    if (error instanceof PyException && error.pyType === "JSONDecodeError") return [{}, false];
    throw error;
  }
}

/** `parameters.required` of the declared tool with that name ([] when the tool is not declared). */
function requiredParams(params: JsonObject, toolName: unknown): unknown[] {
  for (const tool of (params.tools as JsonObject[] | null | undefined) ?? []) {
    if (!pyEquals(tool.name ?? null, toolName)) continue;
    const parameters = Object.hasOwn(tool, "parameters") ? tool.parameters : {};
    if (!isObject(parameters)) throw new PyException("AttributeError", "'NoneType' object has no attribute 'get'");
    const required = parameters.required;
    return Array.isArray(required) ? required : [];
  }
  return [];
}

/** Same name, and every expected argument equal under Python `==` (a missing argument is None). */
function callMatches(call: JsonObject, expected: JsonObject): boolean {
  if (Object.keys(expected).length === 0) return false;
  if (!pyEquals(call.name ?? null, expected.name ?? null)) return false;
  const [args] = parseArguments(call.arguments);
  const given = Object.hasOwn(expected, "arguments") ? expected.arguments : {};
  // Python `x or {}`: an empty list is falsy there too.
  const expectedArgs = !given || (Array.isArray(given) && given.length === 0) ? {} : given;
  if (!isObject(expectedArgs)) throw new PyException("AttributeError", `'${Array.isArray(expectedArgs) ? "list" : "str"}' object has no attribute 'items'`);
  return Object.entries(expectedArgs).every(([k, v]) => pyEquals(Object.hasOwn(args, k) ? args[k] : null, v));
}

export default defineResourcesServer({
  name: "example_tool_call_multireward",
  className: "ToolCallMultiRewardResourcesServer",
  verify: {
    request: { fields: { expected_call: py.withDefault(py.dict(), () => ({})) } },
    response: ["reward_components", "correctness", "schema_valid", "format", "predicted_calls"],
    handler(body) {
      const response = body.response as JsonObject;
      const calls = functionCalls(response);
      const format = calls.length === 1 && !outputItems(response).some((item) => item.type === "message") ? 1 : 0;
      let schemaValid = 0;
      if (calls.length > 0) {
        const [parsed, valid] = parseArguments(calls[0]!.arguments);
        const required = requiredParams(body.responses_create_params as JsonObject, calls[0]!.name);
        schemaValid = valid && required.every((k) => typeof k === "string" && Object.hasOwn(parsed, k)) ? 1 : 0;
      }
      const correctness = calls.some((call) => callMatches(call, body.expected_call as JsonObject)) ? 1 : 0;
      return {
        reward: correctness + schemaValid + format,
        reward_components: { correctness: pyFloat(correctness), schema_valid: pyFloat(schemaValid), format: pyFloat(format) },
        correctness: pyFloat(correctness),
        schema_valid: pyFloat(schemaValid),
        format: pyFloat(format),
        predicted_calls: calls.map((call) => ({ name: call.name, arguments: parseArguments(call.arguments)[0] })),
      };
    },
  },
  tools: {
    get_weather: {
      request: { fields: { city: py.str() } },
      handler: ({ city }) => ({ city, weather_description: `The weather in ${city} is sunny.` }),
    },
  },
});

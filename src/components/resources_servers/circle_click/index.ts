/** circle_click: the first `click` tool call must land inside the first circle of the target colour. */
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { functionCalls } from "../_common/output.ts";
import { PyException } from "../_python/errors.ts";
import { pyInt } from "../_python/number.ts";
import { pyEquals, pyJsonLoads } from "../_python/values.ts";

const CAUGHT = new Set(["JSONDecodeError", "KeyError", "ValueError", "TypeError"]);

function key(value: unknown, name: string): unknown {
  if (value === null || typeof value !== "object") {
    throw new PyException("TypeError", `'${value === null ? "NoneType" : typeof value === "string" ? "str" : typeof value === "boolean" ? "bool" : typeof value === "number" ? "int" : "object"}' object is not subscriptable`);
  }
  if (Array.isArray(value)) throw new PyException("TypeError", "list indices must be integers or slices, not str");
  if (!Object.hasOwn(value, name)) throw new PyException("KeyError", name);
  return (value as JsonObject)[name];
}

function number(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return Number(value);
  throw new PyException("TypeError", "unsupported operand type(s) for -: 'int' and 'str'");
}

/** Euclidean distance from the circle's centre ≤ radius (the boundary counts). */
export function pointInCircle(px: number, py: number, circle: JsonObject): boolean {
  const dx = px - number(key(circle, "x"));
  const dy = py - number(key(circle, "y"));
  return Math.sqrt(dx * dx + dy * dy) <= number(key(circle, "radius"));
}

/** The first `click` call's coordinates with Python's int(): floats truncate, numeric strings parse, failures leave null. */
export function clickedPoint(response: JsonObject): { x: number | null; y: number | null } {
  let x: number | null = null;
  let y: number | null = null;
  const call = functionCalls(response).find((item) => item.name === "click");
  if (call) {
    try {
      const args = pyJsonLoads(call.arguments as string);
      x = pyInt(key(args, "x"));
      y = pyInt(key(args, "y"));
    } catch (error) {
      // OverflowError (int(inf)) is not in NeMo Gym's except clause: it escapes as a 500.
      if (!(error instanceof PyException && CAUGHT.has(error.pyType))) throw error;
    }
  }
  return { x, y };
}

export default defineResourcesServer({
  name: "circle_click",
  className: "CircleClickResourcesServer",
  verify: {
    request: {
      fields: {
        circles: py.withDefault(py.list(py.dict()), () => []),
        target_color: py.withDefault(py.str(), () => ""),
      },
    },
    response: ["clicked_x", "clicked_y", "hit"],
    handler(body) {
      const { x, y } = clickedPoint(body.response as JsonObject);
      let hit = false;
      if (x !== null && y !== null) {
        // Only the FIRST circle of the target colour is considered (Python `==`, so 1 == 1.0 == True).
        const circle = (body.circles as JsonObject[]).find((c) => pyEquals(key(c, "color"), body.target_color));
        if (circle) hit = pointInCircle(x, y, circle);
      }
      return { reward: hit ? 1 : 0, clicked_x: x, clicked_y: y, hit };
    },
  },
  tools: {
    click: {
      request: { fields: { x: py.any(), y: py.any() } },
      handler: (body) => ({ x: body.x, y: body.y }),
    },
  },
});

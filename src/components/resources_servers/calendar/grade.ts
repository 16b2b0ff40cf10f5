/**
 * calendar's grade: the first JSON list of objects in the reply is the calendar; it must hold as many events as the
 * expected state, no two overlapping, each with the expected duration inside its window and its constraint
 * ("before …", "after …", "between … and …", "at …"). Any error while grading scores 0, as NeMo Gym's bare `except`.
 */
import { PyException } from "../_python/errors.ts";
import { pyInt } from "../_python/number.ts";
import { pyEquals, pyJsonLoads } from "../_python/values.ts";
import { pyStrip } from "../_python/text.ts";

export type CalendarVerdict = "think_found" | "pass" | "no_json_list" | "different_number_of_events" | "conflicting_events" | "constraint_violated" | "error_in_grading";

type Event = Record<string, unknown>;

function fail(message: string): never {
  throw new PyException("TypeError", message);
}

/** `"10:30am"`, `"2pm"`, `"14:05"` → minutes after midnight (Python's int() on each part). */
export function timeToMinutes(value: unknown): number {
  if (typeof value !== "string") fail("time is not a string");
  const t = pyStrip(value);
  const am = t.includes("am");
  if (am || t.includes("pm")) {
    const bare = t.replaceAll(am ? "am" : "pm", "");
    const offset = am ? 0 : 12 * 60;
    if (!bare.includes(":")) {
      const hour = pyInt(bare);
      return (hour !== 12 ? hour * 60 : 0) + offset;
    }
    const [hour, minute] = twoInts(bare);
    return (hour !== 12 ? hour * 60 : 0) + offset + minute;
  }
  const [hours, minutes] = twoInts(t);
  return hours * 60 + minutes;
}

function twoInts(s: string): [number, number] {
  const parts = s.split(":");
  if (parts.length !== 2) throw new PyException("ValueError", "expected two values to unpack");
  return [pyInt(parts[0]), pyInt(parts[1])];
}

/** Python's `a + b` where b must be a number (bools count as 0/1). */
function plus(a: number, b: unknown): number {
  if (typeof b === "boolean") return a + Number(b);
  if (typeof b !== "number") fail("unsupported operand type(s) for +");
  return a + b;
}

function item(event: unknown, key: string): unknown {
  if (event === null || typeof event !== "object" || Array.isArray(event)) fail("event is not a dict");
  if (!Object.hasOwn(event, key)) throw new PyException("KeyError", key);
  return (event as Event)[key];
}

/** The first `[...]` holding at least one `{...}` (NeMo Gym's regex), parsed; null when absent or not JSON. */
export function extractJsonList(text: string): unknown[] | null {
  const match = /\[(?:[^[\]]|\{[^}]*\})*\{(?:[^[\]]|\{[^}]*\})*\}(?:[^[\]]|\{[^}]*\})*\]/.exec(text);
  if (!match) return null;
  try {
    return pyJsonLoads(match[0]) as unknown[];
  } catch {
    return null;
  }
}

function conflicts(events: unknown[], check: unknown): boolean {
  const start = timeToMinutes(item(check, "start_time"));
  const end = plus(start, item(check, "duration"));
  for (const other of events) {
    if (pyEquals(other, check)) continue;
    const otherStart = timeToMinutes(item(other, "start_time"));
    const otherEnd = plus(otherStart, item(other, "duration"));
    if (!(end <= otherStart || start >= otherEnd)) return true;
  }
  return false;
}

function satisfied(event: unknown, expected: unknown): boolean {
  if (!pyEquals(item(event, "duration"), item(expected, "duration"))) return false;
  const min = timeToMinutes(item(expected, "min_time"));
  const max = timeToMinutes(item(expected, "max_time"));
  const start = timeToMinutes(item(event, "start_time"));
  const end = plus(start, item(event, "duration"));
  if (start < min || end > max) return false;
  const constraint = item(expected, "constraint");
  if (constraint === null) return true;
  if (typeof constraint !== "string") fail("constraint is not a string");
  if (constraint.startsWith("before ")) return end <= timeToMinutes(constraint.replaceAll("before ", ""));
  if (constraint.startsWith("after ")) return start >= timeToMinutes(constraint.replaceAll("after ", ""));
  if (constraint.startsWith("between ")) {
    const parts = constraint.replaceAll("between ", "").split(" and ");
    if (parts.length !== 2) throw new PyException("ValueError", `Invalid 'between' constraint format: ${constraint}`);
    return start >= timeToMinutes(parts[0]) && end <= timeToMinutes(parts[1]);
  }
  if (constraint.startsWith("at ")) return start === timeToMinutes(constraint.replaceAll("at ", ""));
  return true;
}

/** Python's str() of an event id: the dict key the expected state is looked up by. */
function idKey(id: unknown): string {
  if (typeof id === "string") return id;
  if (typeof id === "boolean") return id ? "True" : "False";
  if (typeof id === "number" && Number.isInteger(id) && !Object.is(id, -0)) return String(id);
  // A float or container id never matches the expected state's "0", "1", … keys.
  return `\u0000${JSON.stringify(id)}`;
}

/** NeMo Gym's `grade_assistant_response`: 1 or 0 with the reason. */
export function gradeCalendar(reply: string, expected: Record<string, unknown>): [0 | 1, CalendarVerdict] {
  if (reply.includes("<think>")) return [0, "think_found"];
  const expectedIds = Object.keys(expected);
  if (expectedIds.length === 0) return [1, "pass"];
  try {
    const events = extractJsonList(reply);
    if (events === null || events.length === 0) return [0, "no_json_list"];
    const byId = new Map<string, unknown>();
    for (const event of events) byId.set(idKey(item(event, "event_id")), event);
    if (byId.size !== expectedIds.length) return [0, "different_number_of_events"];
    for (const event of events) if (conflicts(events, event)) return [0, "conflicting_events"];
    for (const id of expectedIds) {
      if (!byId.has(id)) throw new PyException("KeyError", id);
      if (!satisfied(byId.get(id), expected[id])) return [0, "constraint_violated"];
    }
  } catch {
    return [0, "error_in_grading"];
  }
  return [1, "pass"];
}

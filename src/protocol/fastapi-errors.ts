/** Valibot issues → FastAPI's 422 body (`{"detail":[{type, loc, msg, input}]}`), so Python peers parse our errors. */
import type { BaseIssue } from "valibot";

export interface FastApiErrorEntry {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

export interface FastApiErrorBody {
  detail: FastApiErrorEntry[];
}

/** Converts valibot issues (from validating `body`) into FastAPI error entries under `loc`. */
export function fastApiIssues(issues: readonly BaseIssue<unknown>[], body: unknown, loc: (string | number)[] = ["body"]): FastApiErrorEntry[] {
  const entries: FastApiErrorEntry[] = [];
  const seen = new Set<string>();
  for (const issue of flatten(issues)) {
    const path = (issue.path ?? []).map((item) => item.key as string | number);
    const entry = toEntry(issue, [...loc, ...path], body, path);
    const key = JSON.stringify([entry.type, entry.loc]);
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push(entry);
  }
  return entries;
}

/** Union issues carry their alternatives' issues; report the alternatives (as pydantic does), deduplicated. */
function* flatten(issues: readonly BaseIssue<unknown>[]): Generator<BaseIssue<unknown>> {
  for (const issue of issues) {
    if (issue.type === "union" && issue.issues?.length) {
      for (const inner of flatten(issue.issues)) {
        // Nested issues keep only their own path; put the union's position in front.
        const prefix = issue.path ?? [];
        const own = inner.path ?? [];
        const joined = own.length >= prefix.length && prefix.every((p, i) => own[i] === p) ? own : [...prefix, ...own];
        yield { ...inner, path: joined.length ? (joined as never) : undefined };
      }
    } else yield issue;
  }
}

function toEntry(issue: BaseIssue<unknown>, loc: (string | number)[], body: unknown, path: (string | number)[]): FastApiErrorEntry {
  const expected = issue.expected ?? "";
  if (issue.received === "undefined") {
    return { type: "missing", loc, msg: "Field required", input: parentOf(body, path) };
  }
  if (expected === "never") {
    // valibot reports the key as input; FastAPI reports the key's value.
    const value = (parentOf(body, path) as Record<string, unknown> | undefined)?.[String(path.at(-1))];
    return { type: "extra_forbidden", loc, msg: "Extra inputs are not permitted", input: value };
  }
  if (expected.includes('"')) {
    const options = expected.split(" | ").map((o) => `'${o.replace(/^"|"$/g, "")}'`);
    const list = options.length > 1 ? `${options.slice(0, -1).join(", ")} or ${options.at(-1)}` : options[0];
    return { type: "literal_error", loc, msg: `Input should be ${list}`, input: issue.input, ctx: { expected: list } };
  }
  const simple: Record<string, [string, string]> = {
    string: ["string_type", "Input should be a valid string"],
    boolean: ["bool_type", "Input should be a valid boolean"],
    number: ["float_type", "Input should be a valid number"],
    integer: ["int_type", "Input should be a valid integer"],
    Array: ["list_type", "Input should be a valid list"],
    Object: ["dict_type", "Input should be a valid dictionary"],
    null: ["none_required", "Input should be None"],
  };
  const hit = simple[expected.replace(/ \| null$/, "")] ?? (issue.type === "integer" ? simple.integer : undefined);
  if (hit) return { type: hit[0], loc, msg: hit[1], input: issue.input };
  return { type: "value_error", loc, msg: issue.message, input: issue.input };
}

function parentOf(body: unknown, path: (string | number)[]): unknown {
  let node = body;
  for (const key of path.slice(0, -1)) node = (node as Record<string | number, unknown>)?.[key];
  return node;
}

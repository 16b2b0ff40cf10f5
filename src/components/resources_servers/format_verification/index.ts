/** format_verification: per-row format checks with dataset-supplied Python regexes (line counts) or expected markers. */
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { outputText } from "../_common/output.ts";
import { PyException, pyRepr } from "../_python/errors.ts";
import { pyCompile, pyFinditer } from "../_python/re.ts";
import { pyIn, pySet } from "../_python/values.ts";

type Check = { reward: number; details: JsonObject };

function listOf(verifier: JsonObject, key: string): unknown[] {
  const value = Object.hasOwn(verifier, key) ? verifier[key] : [];
  if (Array.isArray(value)) return value;
  if (typeof value === "string") return Array.from(value);
  throw new PyException("TypeError", `'${value === null ? "NoneType" : typeof value === "number" ? "int" : "dict"}' object is not iterable`);
}

function pattern(p: unknown): string {
  if (typeof p !== "string") throw new PyException("TypeError", "first argument must be string or compiled pattern");
  return p;
}

/** `regex` / `inline_prose`: lines (split on "\n" only) on which any pattern matches; pass when ≥ verify_min_matches. */
export function verifyRegex(text: string, verifier: JsonObject): Check {
  const compiled = listOf(verifier, "verify_regex").map((p) => pyCompile(pattern(p)));
  const minMatches = Object.hasOwn(verifier, "verify_min_matches") ? verifier.verify_min_matches : 1;
  if (typeof minMatches !== "number" && typeof minMatches !== "boolean") {
    throw new PyException("TypeError", `'>=' not supported between instances of 'int' and '${minMatches === null ? "NoneType" : typeof minMatches === "string" ? "str" : "list"}'`);
  }
  let matchingLines = 0;
  // Each line keeps a trailing "\r" here, and Python's `.` matches it (the translated regexes keep that).
  for (const line of text.split("\n")) if (compiled.some((rx) => rx.search.test(line))) matchingLines++;
  const passed = matchingLines >= Number(minMatches);
  return { reward: passed ? 1 : 0, details: { matching_lines: matchingLines, min_matches: minMatches, passed } };
}

/** `string_match`: every expected marker present (case-sensitive), and no regex match outside the expected set. */
export function verifyStringMatch(text: string, verifier: JsonObject): Check {
  const expected = listOf(verifier, "expected_markers");
  const patterns = listOf(verifier, "patterns");
  const missing = expected.filter((m) => {
    if (typeof m !== "string") throw new PyException("TypeError", `'in <string>' requires string as left operand, not ${m === null ? "NoneType" : typeof m === "number" ? "int" : "list"}`);
    return !text.includes(m);
  });
  const spurious: string[] = [];
  if (patterns.length > 0) {
    const expectedSet = pySet(expected);
    for (const p of patterns) {
      for (const found of pyFinditer(pyCompile(pattern(p)), text)) if (!pyIn(found[0], expectedSet)) spurious.push(found[0]);
    }
  }
  const passed = missing.length === 0 && spurious.length === 0;
  return { reward: passed ? 1 : 0, details: { expected, missing, spurious, passed } };
}

export default defineResourcesServer({
  name: "format_verification",
  className: "FormatVerificationResourcesServer",
  verify: {
    request: { fields: { verifier: py.dict() } },
    response: ["verifier", "match_details"],
    handler(body) {
      const text = outputText(body.response as JsonObject);
      const verifier = body.verifier as JsonObject;
      const type = Object.hasOwn(verifier, "type") ? verifier.type : "";
      let check: Check;
      if (type === "regex" || type === "inline_prose") check = verifyRegex(text, verifier);
      else if (type === "string_match") check = verifyStringMatch(text, verifier);
      else throw new PyException("NotImplementedError", `Verifier type must be 'regex' or 'string_match', got ${pyRepr(type)}`);
      return { reward: check.reward, match_details: check.details };
    },
  },
});

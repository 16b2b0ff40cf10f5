import { describe, expect, test } from "bun:test";
import { GymError } from "../errors.ts";
import type { ConfigMap } from "./_tree.ts";
import { applyDeletions, buildCliLayer, checkReplacements, parseOverride } from "./overrides.ts";
import { parseOverrideValue } from "./override-value.ts";

const value = (text: string) => parseOverrideValue(text);

describe("override value grammar (Hydra 1.3)", () => {
  test("typed primitives", () => {
    expect(value("0")).toBe(0);
    expect(value("-20")).toBe(-20);
    expect(value("1_000")).toBe(1000);
    expect(value("3.14")).toBe(3.14);
    expect(value(".5")).toBe(0.5);
    expect(value("5.")).toBe(5);
    expect(value("1e-3")).toBe(0.001);
    expect(value("inf")).toBe(Infinity);
    expect(Number.isNaN(value("nan"))).toBe(true);
    expect(value("TRUE")).toBe(true);
    expect(value("false")).toBe(false);
    expect(value("Null")).toBeNull();
  });

  test("several tokens together are a string; whitespace around is trimmed", () => {
    expect(value("1.0.0")).toBe("1.0.0");
    expect(value("openai/gpt-oss-120b")).toBe("openai/gpt-oss-120b");
    expect(value("http://0.0.0.0:10240/v1")).toBe("http://0.0.0.0:10240/v1");
    expect(value("  a b  ")).toBe("a b");
    expect(value("007")).toBe("007");
  });

  test("quoted strings are always strings, with escaped quotes", () => {
    expect(value("'1'")).toBe("1");
    expect(value('"true"')).toBe("true");
    expect(value("'it\\'s'")).toBe("it's");
    expect(value('"a,b"')).toBe("a,b");
  });

  test("lists and mappings, elements typed by the same rules", () => {
    expect(value("[a,1,true]")).toEqual(["a", 1, true]);
    expect(value("[]")).toEqual([]);
    expect(value("{agent_alpha: 4, _default: 1}")).toEqual({ agent_alpha: 4, _default: 1 });
    expect(value("{a: [1, {b: x}], url: http://h:1/v1}")).toEqual({ a: [1, { b: "x" }], url: "http://h:1/v1" });
  });

  test("interpolations are kept as strings, commas inside them included", () => {
    expect(value("${policy_base_url}")).toBe("${policy_base_url}");
    expect(value("${oc.env:A,b}")).toBe("${oc.env:A,b}");
    expect(value("[${a},${b}]")).toEqual(["${a}", "${b}"]);
  });

  test("empty value is an empty string; escapes make literal characters", () => {
    expect(value("")).toBe("");
    expect(value("a\\,b")).toBe("a,b");
    expect(value("\\[x\\]")).toBe("[x]");
  });

  test("cast functions; sweeps are errors", () => {
    expect(value("str(1)")).toBe("1");
    expect(value('int("3")')).toBe(3);
    expect(value("float(2)")).toBe(2);
    expect(value("bool(true)")).toBe(true);
    expect(() => value("choice(a,b)")).toThrow(/sweep/);
    expect(() => value("a,b")).toThrow(/sweep/);
    expect(() => value("[a,b")).toThrow(/closing/);
  });
});

describe("parseOverride", () => {
  test("the four forms", () => {
    expect(parseOverride("+a.b=1")).toMatchObject({ kind: "add", key: "a.b", path: ["a", "b"], value: 1 });
    expect(parseOverride("++a=x")).toMatchObject({ kind: "force", value: "x" });
    expect(parseOverride("a=[1]")).toMatchObject({ kind: "set", value: [1] });
    expect(parseOverride("~a.b")).toMatchObject({ kind: "delete", path: ["a", "b"] });
    expect(parseOverride("~a=1")).toMatchObject({ kind: "delete", value: 1 });
    expect(parseOverride("+k=")).toMatchObject({ value: "" });
    expect(parseOverride("+xs.0=v")).toMatchObject({ path: ["xs", 0] });
  });

  test("rejected: group syntax, hydra.* keys, missing '=', bad keys", () => {
    for (const [token, message] of [
      ["+db/mysql=x", /config-group syntax/],
      ["+a@pkg=x", /config-group syntax/],
      ["++hydra.run.dir=x", /hydra/],
      ["+a", /has no '='/],
      ["+a..b=1", /invalid key/],
    ] as const) {
      expect(() => parseOverride(token)).toThrow(message);
    }
  });
});

describe("buildCliLayer", () => {
  const build = (...tokens: string[]) => buildCliLayer(tokens.map(parseOverride));

  test("+ adds sibling leaves under one parent", () => {
    expect(build("+rcp.temperature=1", "+rcp.top_p=1").tree).toEqual({ rcp: { temperature: 1, top_p: 1 } });
  });

  test("+ after an earlier token for the same key is an error; ++ replaces", () => {
    expect(() => build("+rcp.temperature=0.5", "+rcp.temperature=0.7")).toThrow(/already set it/);
    expect(build("+rcp.temperature=0.5", "++rcp.temperature=0.7").tree).toEqual({ rcp: { temperature: 0.7 } });
  });

  test("++ with a mapping merges into the mapping already there", () => {
    expect(build("+a.x=1", "++a={y: 2}").tree).toEqual({ a: { x: 1, y: 2 } });
  });

  test("plain key=value must exist below the CLI layer", () => {
    const layer = build("a.b=2", "polcy_model_name=m");
    let error: unknown;
    try {
      checkReplacements(layer.replacements, { a: { b: 1 }, policy_model_name: "" });
    } catch (e) {
      error = e;
    }
    expect((error as GymError).message).toMatch(/Could not override 'polcy_model_name'/);
    expect((error as GymError).hint).toContain("did you mean 'policy_model_name'");
    expect(() => checkReplacements(layer.replacements.slice(0, 1), { a: { b: 1 } })).not.toThrow();
  });

  test("~ deletes from the merged tree; a missing key or a different value is an error", () => {
    const tree: ConfigMap = { a: { b: 1, c: 2 }, d: "x" };
    applyDeletions(build("~a.b", "~d=x").deletions, tree);
    expect(tree).toEqual({ a: { c: 2 } });
    expect(() => applyDeletions(build("~nope").deletions, tree)).toThrow(/no such key/);
    expect(() => applyDeletions(build("~a.c=3").deletions, tree)).toThrow(/holds 2, not 3/);
  });
});

import { describe, expect, test } from "bun:test";
import { GymError } from "../errors.ts";
import { Interpolator, resolveTree, splitTemplate, type Unresolved } from "./interpolation.ts";

describe("interpolation", () => {
  test("absolute keys; a lone interpolation keeps the type, an embedded one becomes text", () => {
    const tree = { host: "h", port: 8000, flag: true, none: null, list: [1, 2], url: "http://${host}:${port}/v1", p: "${port}", l: "${list}", s: "${flag}-${none}" };
    expect(resolveTree(tree)).toMatchObject({ url: "http://h:8000/v1", p: 8000, l: [1, 2], s: "True-None" });
  });

  test("nested paths, list items as a.0 and a[0], chains of interpolations", () => {
    const tree = { a: { b: { c: "deep" } }, xs: ["x0", "x1"], r1: "${a.b.c}", r2: "${xs.1}", r3: "${xs[0]}", r4: "${r1}" };
    expect(resolveTree(tree)).toMatchObject({ r1: "deep", r2: "x1", r3: "x0", r4: "deep" });
  });

  test("relative keys: ${.x} is a sibling, ${..x} one level up", () => {
    const tree = { srv: { host: "h", port: 1, inner: { url: "${..host}:${..port}", me: "${.name}", name: "n" } } };
    expect(resolveTree(tree)).toEqual({ srv: { host: "h", port: 1, inner: { url: "h:1", me: "n", name: "n" } } });
  });

  test("a mapping target is resolved inside too", () => {
    const tree = { base: { url: "${u}" }, u: "x", copy: "${base}" };
    expect(resolveTree(tree).copy).toEqual({ url: "x" });
  });

  test("\\${ escapes a literal", () => {
    expect(resolveTree({ a: "cost \\${x}" }).a).toBe("cost ${x}");
    expect(splitTemplate("a\\${b}")).toEqual([{ text: "a${b}" }]);
  });

  test("oc.env: value, default as a string, null default, unset without default fails", () => {
    const env = { GYM_A: "1" };
    const tree = { a: "${oc.env:GYM_A}", b: "${oc.env:GYM_B,3}", c: "${oc.env:GYM_B,null}", d: "${oc.env:GYM_B,'x,y'}", e: "${oc.env:GYM_B,false}" };
    expect(resolveTree(tree, { env })).toEqual({ a: "1", b: "3", c: null, d: "x,y", e: "False" });
    expect(() => resolveTree({ k: "${oc.env:GYM_NOPE}" }, { env })).toThrow(/environment variable 'GYM_NOPE', which is not set/);
  });

  test("oc.select with a default, nested resolvers in defaults", () => {
    const tree = { a: 1, s1: "${oc.select:a,2}", s2: "${oc.select:missing,2}", s3: "${oc.select:missing,${oc.env:K,null}}" };
    expect(resolveTree(tree, { env: {} })).toMatchObject({ s1: 1, s2: 2, s3: null });
  });

  test("a missing key names the value, the key and the fix", () => {
    try {
      resolveTree({ srv: { url: "${policy_base_url}" } }, { originOf: () => "conf.yaml" });
      throw new Error("expected an error");
    } catch (e) {
      expect(e).toBeInstanceOf(GymError);
      expect((e as GymError).message).toBe("Config value 'srv.url' (from conf.yaml) references 'policy_base_url', which is not set after merging.");
      expect((e as GymError).hint).toContain("++policy_base_url=<value>");
    }
  });

  test("collect mode lists every unresolved key and variable instead of failing", () => {
    const collect: Unresolved[] = [];
    new Interpolator({ a: "${x}", b: { c: "${.y}" }, d: "${oc.env:GYM_NOPE}" }, { collect, env: {} }).resolveNode({ a: "${x}", b: { c: "${.y}" }, d: "${oc.env:GYM_NOPE}" }, []);
    expect(collect).toEqual([
      { kind: "key", name: "x", at: "a" },
      { kind: "key", name: "b.y", at: "b.c" },
      { kind: "env", name: "GYM_NOPE", at: "d" },
    ]);
  });

  test("cycles and ??? targets are errors; unknown resolvers too", () => {
    expect(() => resolveTree({ a: "${b}", b: "${a}" })).toThrow(/Interpolation cycle: a -> b -> a/);
    expect(() => resolveTree({ a: "???", b: "${a}" })).toThrow(/still '\?\?\?'/);
    expect(() => resolveTree({ a: "${nope.fn:1}" })).toThrow(/unknown resolver 'nope.fn'/);
  });
});

import { describe, expect, test } from "bun:test";
import { applyDirectives } from "./directives.ts";

const generic = {
  math_with_judge: { resources_servers: { math_with_judge: { entrypoint: "app.py", domain: "math", should_use_judge: false } } },
  math_agent: {
    responses_api_agents: {
      simple_agent: {
        entrypoint: "app.py",
        resources_server: { type: "resources_servers", name: "math_with_judge" },
        datasets: [{ name: "train", type: "train" }],
      },
    },
  },
};

describe("applyDirectives", () => {
  test("_inherit_from: node = merge(source, node); the source is removed; lists replace", () => {
    const out = applyDirectives({
      ...generic,
      bench_rs: { _inherit_from: "math_with_judge" },
      bench_agent: {
        _inherit_from: "math_agent",
        responses_api_agents: { simple_agent: { resources_server: { name: "bench_rs" }, datasets: [{ name: "aime24", type: "benchmark" }] } },
      },
    });
    expect(Object.keys(out)).toEqual(["bench_rs", "bench_agent"]);
    expect(out.bench_rs).toEqual(generic.math_with_judge);
    expect(out.bench_agent).toEqual({
      responses_api_agents: {
        simple_agent: {
          entrypoint: "app.py",
          resources_server: { type: "resources_servers", name: "bench_rs" },
          datasets: [{ name: "aime24", type: "benchmark" }],
        },
      },
    });
  });

  test("${inherit_from:…} string form copies the source unchanged, at any depth, scalars too", () => {
    const out = applyDirectives({ a: { b: { c: 5 } }, keep: { x: "${inherit_from:a.b.c}" }, whole: "${inherit_from:a.b}" });
    expect(out).toEqual({ a: {}, keep: { x: 5 }, whole: { c: 5 } });
  });

  test("several inheritors of one source each get the original (snapshot)", () => {
    const out = applyDirectives({ src: { v: 1 }, one: { _inherit_from: "src", w: 1 }, two: { _inherit_from: "src", w: 2 } });
    expect(out).toEqual({ one: { v: 1, w: 1 }, two: { v: 1, w: 2 } });
  });

  test("_copy and ${copy:…} leave the source in place", () => {
    const out = applyDirectives({ src: { v: 1 }, c1: { _copy: "src", w: 2 }, c2: "${copy:src.v}" });
    expect(out).toEqual({ src: { v: 1 }, c1: { v: 1, w: 2 }, c2: 1 });
  });

  test("_delete_key: own keys go first, inherited keys after; an inherited key must exist", () => {
    const out = applyDirectives({ src: { a: 1, b: 2, c: 3 }, t: { _inherit_from: "src", _delete_key: "b, mine", mine: 9, d: 4 } });
    expect(out).toEqual({ t: { a: 1, c: 3, d: 4 } });
    expect(() => applyDirectives({ src: { a: 1 }, t: { _copy: "src", _delete_key: "zzz" } })).toThrow(/_delete_key 'zzz'/);
  });

  test("a ??? source (or ancestor) makes the target ???", () => {
    expect(applyDirectives({ src: "???", t: { _copy: "src" } }).t).toBe("???");
    expect(applyDirectives({ src: { a: "???" }, t: "${copy:src.a.b}" }).t).toBe("???");
  });

  test("a missing path names the requester, the path and a close match", () => {
    expect(() => applyDirectives({ base_server: { v: 1 }, bench: { _inherit_from: "base_servr" } }, () => "bench.yaml")).toThrow(
      `'bench' (from bench.yaml) inherits or copies 'base_servr', which does not exist in the merged config (path ["base_servr"]). Did you mean 'base_server'?`,
    );
  });

  test("improvement over 0.5.x: chains expand in dependency order; cycles are reported", () => {
    const out = applyDirectives({ A: { a: 1 }, B: { _inherit_from: "A", b: 2 }, C: { _inherit_from: "B", c: 3 } });
    expect(out).toEqual({ C: { a: 1, b: 2, c: 3 } });
    expect(() => applyDirectives({ X: { _inherit_from: "Y" }, Y: { _inherit_from: "X" } })).toThrow(/Inheritance cycle: X -> Y -> X|Inheritance cycle: Y -> X -> Y/);
  });

  test("directives inside nested mappings and list items", () => {
    const out = applyDirectives({ lib: { item: { k: 1 } }, outer: { inner: { _copy: "lib.item", z: 0 } }, xs: [{ _copy: "lib.item" }] });
    expect(out).toEqual({ lib: { item: { k: 1 } }, outer: { inner: { k: 1, z: 0 } }, xs: [{ k: 1 }] });
  });
});

import { describe, expect, test } from "bun:test";
import { GymError } from "../errors.ts";
import { parseYaml, parseYamlMapping, toYaml } from "./yaml.ts";

describe("parseYaml (OmegaConf's reading of YAML 1.1)", () => {
  test("PyYAML booleans yes/on, but y/n stay strings; timestamps stay strings", () => {
    expect(parseYaml("a: yes\nb: off\nc: y\nn: 1\nd: 2024-01-01\ne: 1_000\nf: 1e-3\ng: ???\nh: ${x.y}\n", "f.yaml")).toEqual({
      a: true, b: false, c: "y", n: 1, d: "2024-01-01", e: 1000, f: 0.001, g: "???", h: "${x.y}",
    });
  });

  test("merge keys and anchors resolve", () => {
    expect(parseYaml("base: &b {x: 1}\nother:\n  <<: *b\n  y: 2\n", "f.yaml")).toEqual({ base: { x: 1 }, other: { x: 1, y: 2 } });
  });

  test("empty file is an empty mapping", () => {
    expect(parseYamlMapping("# nothing\n", "f.yaml")).toEqual({});
  });

  test("syntax error names the file, line and column", () => {
    try {
      parseYaml("a: 1\nb: [1, 2\n", "conf/bad.yaml");
      throw new Error("expected an error");
    } catch (e) {
      expect(e).toBeInstanceOf(GymError);
      expect((e as GymError).code).toBe("E_CONFIG_SYNTAX");
      expect((e as GymError).message).toMatch(/^Malformed YAML in 'conf\/bad.yaml' at line 3, column 1: /);
    }
  });

  test("duplicate keys are an error, as in OmegaConf", () => {
    expect(() => parseYaml("a: 1\na: 2\n", "d.yaml")).toThrow(/Malformed YAML in 'd.yaml' at line 2, column 1/);
  });

  test("a top-level list is not a config", () => {
    expect(() => parseYamlMapping("- a\n- b\n", "l.yaml")).toThrow(/must hold a mapping/);
  });
});

describe("toYaml", () => {
  test("block style, lists flush with their key, ambiguous strings quoted, round-trips", () => {
    const tree = { a: "yes", b: "2024-01-01", c: "???", d: "${x}", e: [{ name: "x", n: 1 }], f: null, g: "1_000", h: 1.5 };
    const text = toYaml(tree);
    expect(text).toContain("e:\n- name: x\n  n: 1\n");
    expect(text).toContain('a: "yes"');
    expect(text).toContain("c: ???");
    expect(parseYaml(text, "out.yaml")).toEqual(tree);
  });
});

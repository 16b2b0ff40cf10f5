import { describe, expect, test } from "bun:test";
import { delimiter, join } from "node:path";
import { componentRoots, extraRootsValue, readFromRoots, resolveReadPath } from "./roots.ts";

const FIX = join(import.meta.dirname, "../../fixtures/config");
const ROOT = join(FIX, "root");

describe("component roots (spec §1.6)", () => {
  test("--search-dir, then NEMO_GYM_EXTRA_ROOTS, then cwd, then the built-ins; duplicates removed", () => {
    const roots = componentRoots({ cwd: FIX, searchDirs: ["root", "/x"], env: { NEMO_GYM_EXTRA_ROOTS: ["/y", "/x", FIX].join(delimiter) } });
    expect(roots).toEqual([
      { kind: "dir", path: ROOT },
      { kind: "dir", path: "/x" },
      { kind: "dir", path: "/y" },
      { kind: "dir", path: FIX },
      { kind: "builtin" },
    ]);
    expect(extraRootsValue(["root"], { NEMO_GYM_EXTRA_ROOTS: "/y" }, FIX)).toBe([ROOT, "/y"].join(delimiter));
  });

  test("a relative read path resolves to the first root that has it, else under the first root", async () => {
    const roots = componentRoots({ cwd: FIX, searchDirs: [ROOT], env: {} });
    expect(await resolveReadPath("chain/A.yaml", roots)).toBe(join(FIX, "chain/A.yaml"));
    expect(await resolveReadPath("resources_servers/mcqa/configs/mcqa.yaml", roots)).toBe(join(ROOT, "resources_servers/mcqa/configs/mcqa.yaml"));
    expect(await resolveReadPath("nope/x.yaml", roots)).toBe(join(ROOT, "nope/x.yaml"));
    expect(await resolveReadPath("/abs/x.yaml", roots)).toBe("/abs/x.yaml");
  });

  test("readFromRoots lists every place it looked; <built-in>/ paths read only the built-ins", async () => {
    const roots = componentRoots({ cwd: FIX, env: {} });
    const missing = await readFromRoots("nope/x.yaml", roots, FIX);
    expect(missing.found).toBeUndefined();
    expect(missing.searched).toEqual([join(FIX, "nope/x.yaml"), "<built-in>/nope/x.yaml"]);
    expect((await readFromRoots("<built-in>/nope/x.yaml", roots, FIX)).searched).toEqual(["<built-in>/nope/x.yaml"]);
    expect((await readFromRoots("chain/A.yaml", roots, FIX)).found?.text).toContain("from_a: a");
  });
});

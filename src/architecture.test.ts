/** The architecture, checked: imports between src/'s top-level folders point down the layer order only. */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * Top to bottom; a folder may import only folders below it (never one beside it on the same line).
 * The README's layout section states the same order. `main.ts` sits above everything, `errors.ts` below.
 */
export const LAYERS: string[][] = [
  ["main.ts"],
  ["cli"],
  ["cluster", "export", "view"],
  ["run"],
  ["stages"],
  ["catalog"],
  ["datasets"],
  ["components"],
  ["sandbox"],
  ["servers"],
  ["download"],
  ["config"],
  ["protocol"],
  ["outputs"],
  ["jsonl"],
  ["metrics"],
  ["text"],
  ["runtime"],
  ["errors.ts"],
];

/** Test files and the test helpers may reach across layers (an end-to-end test drives the whole program). */
const EXEMPT = (path: string) => path.endsWith(".test.ts") || path.endsWith(".case.ts") || path.startsWith("testing/");

const src = import.meta.dir;
const rank = new Map(LAYERS.flatMap((names, i) => names.map((name) => [name, i] as const)));

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) sourceFiles(full, out);
    else if (name.endsWith(".ts")) out.push(full);
  }
  return out;
}

/** The top-level unit of a path under src/: its first folder, or the file itself at the top. */
const unitOf = (path: string) => relative(src, path).split("/")[0]!;

/** Relative specifiers of static imports, re-exports and dynamic `import("…")`. */
export function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:^|[^\w.])(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/gm)].map((m) => m[1]!);
}

/** Every import of a shipped file that does not point strictly down the order: "from => to (why)". */
export function violations(files: string[], read = (file: string) => readFileSync(file, "utf8")): string[] {
  const found: string[] = [];
  for (const file of files) {
    const path = relative(src, file);
    if (EXEMPT(path)) continue;
    const from = unitOf(file);
    for (const specifier of importsOf(read(file))) {
      const target = resolve(dirname(file), specifier);
      if (!target.startsWith(src + "/")) continue; // package.json for --version
      const to = unitOf(target);
      if (from === to) continue;
      const [a, b] = [rank.get(from), rank.get(to)];
      if (a === undefined || b === undefined) found.push(`${path} => ${relative(src, target)} (${a === undefined ? from : to} is not in LAYERS)`);
      else if (a >= b) found.push(`${path} => ${relative(src, target)} (${to} is ${a === b ? "beside" : "above"} ${from})`);
    }
  }
  return found;
}

/** Groups of ≥ 4 files in one folder of > 12 files that share a name prefix (`_aggregate-*`): they want a folder. */
export function prefixGroups(dir: string): string[] {
  const groups: string[] = [];
  const walk = (folder: string) => {
    const entries = readdirSync(folder);
    const files = entries.filter((name) => statSync(join(folder, name)).isFile());
    if (files.length > 12) {
      const byPrefix = new Map<string, string[]>();
      for (const name of files) {
        const prefix = name.replace(/^_+/, "").split(/[-.]/)[0]!;
        byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), name]);
      }
      for (const [prefix, names] of byPrefix) if (names.length >= 4) groups.push(`${relative(src, folder) || "."}: ${prefix}* (${names.join(", ")})`);
    }
    for (const name of entries) if (statSync(join(folder, name)).isDirectory()) walk(join(folder, name));
  };
  walk(dir);
  return groups;
}

describe("architecture", () => {
  const files = sourceFiles(src);

  test("every top-level folder of src/ has a place in the layer order", () => {
    const units = new Set(files.map(unitOf));
    expect([...units].filter((unit) => !rank.has(unit) && unit !== "testing" && !unit.endsWith(".test.ts"))).toEqual([]);
  });

  test("imports point down the layer order only (so no cycle between folders)", () => {
    expect(violations(files)).toEqual([]);
  });

  test("an upward import is caught", () => {
    const probe = join(src, "jsonl", "probe.ts");
    const text = 'import { runCollection } from "../run/collection.ts";\nimport { GymError } from "../errors.ts";\n';
    expect(violations([probe], () => text)).toEqual(["jsonl/probe.ts => run/collection.ts (run is above jsonl)"]);
  });

  test("no crowded folder holds four or more files that share a prefix", () => {
    expect(prefixGroups(src)).toEqual([]);
  });

  test("command files stay thin (≤ 150 lines): logic lives in stages and modules", () => {
    const commands = files.filter((f) => relative(src, f).startsWith("cli/") && !f.endsWith(".test.ts") && !/\/_[^/]*$/.test(f));
    const long = commands.map((f) => [relative(src, f), readFileSync(f, "utf8").split("\n").length] as const).filter(([, n]) => n > 151);
    expect(long).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, gym, repoRoot } from "../testing/binary.ts";

beforeAll(ensureBinary, 120_000);
const fixtures = join(repoRoot, "fixtures", "view");
const dir = fs.mkdtempSync(join(tmpdir(), "gym-view-cli-"));
const env = { GYM_CACHE_DIR: join(dir, "cache") };
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("gym view (binary)", () => {
  test("--help shows PATH ... and the flags", async () => {
    const r = await gym(["view", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Usage: gym view [PATH ...] [options]");
    for (const flag of ["--port", "--host", "--output-dir"]) expect(r.stdout).toContain(flag);
  });

  test("a variadic positional takes every path; other commands still refuse an extra argument", async () => {
    const out = join(dir, "bundle");
    const r = await gym(["view", "bundle", join(fixtures, "baseline"), join(fixtures, "candidate", "rollouts.jsonl"), "--output-dir", out], { env });
    expect(r.stderr).toBe("");
    expect([r.code, r.stdout.trim()]).toEqual([0, expect.stringContaining("Wrote 2 run(s)")]);
    const data = fs.readFileSync(join(out, "assets", "data.js"), "utf8");
    expect(data.startsWith("window.GYM_BUNDLE = ")).toBe(true);
    expect(fs.existsSync(join(out, "index.html"))).toBe(true);
    const extra = await gym(["dev", "compare", "a.jsonl", "b.jsonl", "c.jsonl"]);
    expect(extra.stderr).toContain("Unexpected argument 'c.jsonl'");
  });

  test("a bundle replaces an earlier bundle, never a folder of other files", async () => {
    const out = join(dir, "bundle");
    expect((await gym(["view", "bundle", join(fixtures, "xss"), "--output-dir", out], { env })).code).toBe(0);
    const other = join(dir, "other");
    fs.mkdirSync(other);
    fs.writeFileSync(join(other, "notes.txt"), "keep");
    const r = await gym(["view", "bundle", join(fixtures, "xss"), "--output-dir", other], { env });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("holds other files");
    expect(fs.readFileSync(join(other, "notes.txt"), "utf8")).toBe("keep");
  });

  test("clear errors: a missing path, bundle without --output-dir, a bad port", async () => {
    const missing = await gym(["view", join(dir, "nope"), join(dir, "nope2")], { env });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("nope does not exist");
    const noOut = await gym(["view", "bundle", fixtures], { env });
    expect(noOut.stderr).toContain("needs --output-dir");
    const port = await gym(["view", fixtures, "--port", "http"], { env });
    expect(port.stderr).toContain("--port must be a port number");
  });
});

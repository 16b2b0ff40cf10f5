/** The seed's examples that broke or misled a new user (issue 25), each run on the compiled binary as the documents write it. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym, gymBinary, repoRoot, run } from "../binary.ts";

let dir: string;
const at = (...parts: string[]) => join(dir, ...parts);
const write = (name: string, text: string) => (fs.mkdirSync(join(at(name), ".."), { recursive: true }), fs.writeFileSync(at(name), text));

beforeAll(() => {
  dir = fs.mkdtempSync(join(tmpdir(), "gym-seed-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("gym env test --all", () => {
  test("skips files beside the servers (LICENSE), and the tests it runs start gym as gym, not as Bun (no BUN_BE_BUN leak)", async () => {
    write("et/resources_servers/LICENSE", "Apache License 2.0\n");
    write("et/resources_servers/README.md", "servers\n");
    write(
      "et/resources_servers/probe/probe.test.ts",
      `import { expect, test } from "bun:test";
test("a test that starts gym", async () => {
  expect(process.env.BUN_BE_BUN).toBeUndefined();
  const proc = Bun.spawn([${JSON.stringify(gymBinary)}, "--version"], { stdout: "pipe" });
  expect(await new Response(proc.stdout).text()).toStartWith("gym ");
});
`,
    );
    // The checkout's Bun (node_modules/.bin) is on PATH, as in a clone after npm install.
    const result = await run([gymBinary, "env", "test", "--all", "--search-dir", at("et")], { cwd: at("et"), env: { PATH: `${join(repoRoot, "node_modules", ".bin")}:${process.env.PATH}` } });
    const shown = `${result.stdout}\n${result.stderr}`;
    expect(shown).not.toContain("ENOTDIR");
    expect(shown).toContain("1 pass");
    expect(result.code).toBe(0);
  });
});

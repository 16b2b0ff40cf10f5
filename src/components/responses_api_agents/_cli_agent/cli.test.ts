// Finding a CLI at its pinned version: the executable of the matching install, else an error with the npm command.
import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findCli, type CliPackage } from "./cli.ts";

const cli: CliPackage = { packageName: "@acme/agent", pinnedVersion: "1.2.3", executables: ["@acme/agent-native/bin/agent", "@acme/agent/bin/agent.exe"] };

function install(version: string, withExecutable: boolean): string {
  const root = join(mkdtempSync(join(tmpdir(), "gym-cli-find-")), "node_modules");
  mkdirSync(join(root, "@acme", "agent", "bin"), { recursive: true });
  writeFileSync(join(root, "@acme", "agent", "package.json"), JSON.stringify({ name: "@acme/agent", version }));
  if (withExecutable) writeFileSync(join(root, "@acme", "agent", "bin", "agent.exe"), "#!/bin/sh\n", { mode: 0o755 });
  return root;
}

test("the first root with the pinned version and its executable wins; others are passed over", () => {
  const older = install("1.0.0", true);
  const pinned = install("1.2.3", true);
  const found = findCli(cli, undefined, [older, pinned]);
  expect(found).toMatchObject({ version: "1.2.3", root: pinned });
  expect(found.executable).toEndWith("/@acme/agent/bin/agent.exe");
});

test("a different or executable-less install is an error naming what was found and the npm command", () => {
  const older = install("1.0.0", true);
  const broken = install("2.0.0", false);
  expect(() => findCli(cli, "2.0.0", [older, broken])).toThrow(/@acme\/agent@2\.0\.0 is not installed \(found 1\.0\.0 in .*; 2\.0\.0 in .* \(without its native executable/);
  try {
    findCli(cli, "9.9.9", []);
  } catch (error) {
    expect((error as { hint?: string }).hint).toContain("npm install --prefix ~/.cache/gym/agent-clis @acme/agent@9.9.9");
  }
  expect(() => findCli(cli, "9.9.9", [])).toThrow("@acme/agent@9.9.9 is not installed");
});

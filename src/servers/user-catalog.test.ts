import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../testing/binary.ts";

test("a resources server scaffolded by `gym env init` serves `gym eval run` from the compiled binary, unedited", async () => {
  const dir = mkdtempSync(join(tmpdir(), "gym-user-server-"));
  const init = await gym(["env", "init", "--resources-server", "my_checker"], { cwd: dir });
  expect(init.code).toBe(0);
  const run = await gym(["eval", "run", "--search-dir", ".", "--resources-server", "my_checker", "--model-type", "mock_model", "-o", "out/r.jsonl"], { cwd: dir });
  expect(run.stderr).toContain("Coverage: 2 of 2 rollouts scored");
  expect(run.code).toBe(0);
  const rows = readFileSync(join(dir, "out", "r.jsonl"), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
  expect(rows.map((r) => r.expected_answer)).toEqual(["Paris", "5"]);
  expect(rows.every((r) => r.agent_ref.name === "my_checker_simple_agent" && typeof r.reward === "number")).toBe(true);
  // Its task_data.ts imports gym/server-sdk too: the binary provides it for `env schema` as well.
  const schema = await gym(["env", "schema", "--resources-server", "my_checker", "--search-dir", "."], { cwd: dir });
  expect(schema.code).toBe(0);
  expect(JSON.parse(schema.stdout).properties.expected_answer.type).toBe("string");
}, 60_000);

/** gym dataset init → gym dataset validate --sandbox local on the compiled binary: reward 1, a wrong solution, a hanging one, an escape. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../../testing/binary.ts";
import { detectSandbox } from "../../sandbox/index.ts";

const hasBwrap = (await detectSandbox()).kind === "bwrap";
if (!hasBwrap) console.warn("skip: Harbor validate tests because bubblewrap is not available (apt-get install bubblewrap)");
const sandboxed = hasBwrap ? test : test.skip;

async function scaffold(): Promise<string> {
  const cwd = mkdtempSync(join(tmpdir(), "gym-harbor-test-"));
  const made = await gym(["dataset", "init", "my-dataset", "--image", "ubuntu:24.04"], { cwd });
  expect(made.code).toBe(0);
  return cwd;
}

describe("gym dataset init", () => {
  test("writes dataset.toml (local/<name>) and one task with the image; refuses an existing folder", async () => {
    const cwd = await scaffold();
    const root = join(cwd, "my-dataset");
    expect(readFileSync(join(root, "dataset.toml"), "utf8")).toContain('name = "local/my-dataset"');
    expect(readFileSync(join(root, "hello", "task.toml"), "utf8")).toContain('docker_image = "ubuntu:24.04"');
    expect(readFileSync(join(root, "hello", "environment", "Dockerfile"), "utf8")).toStartWith("FROM ubuntu:24.04");
    for (const f of ["instruction.md", "tests/test.sh", "solution/solve.sh"]) expect(existsSync(join(root, "hello", f))).toBe(true);
    const again = await gym(["dataset", "init", "my-dataset"], { cwd });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");
  });
});

describe("gym dataset validate --sandbox local", () => {
  sandboxed("the scaffolded task's solution scores 1: exit 0, results under results/harbor/validation/<taskset>/", async () => {
    const cwd = await scaffold();
    const out = await gym(["dataset", "validate", "my-dataset", "--sandbox", "local"], { cwd });
    expect(out.stdout).toBe("hello  oracle solved  1\n");
    expect(out.code).toBe(0);
    const dir = join(cwd, "results", "harbor", "validation", "my-dataset");
    const row = JSON.parse(readFileSync(join(dir, "rollouts.jsonl"), "utf8"));
    expect(row).toMatchObject({ _ng_task_id: { taskset: "my-dataset", task_id: "hello" }, reward: 1, verifier_rewards: { reward: 1 }, failure_kind: null });
    expect(readFileSync(join(dir, "verifier", "hello", "reward.txt"), "utf8").trim()).toBe("1");
    expect(JSON.parse(readFileSync(join(dir, "skipped.json"), "utf8"))).toEqual([]);
    expect(readFileSync(join(dir, "tasks.jsonl"), "utf8")).toContain("hello.txt");
  });

  sandboxed("--output FILE (dataset validate) and -o FILE (eval run TARGET --agent harbor_oracle) name the rollouts file", async () => {
    const cwd = await scaffold();
    const validated = await gym(["dataset", "validate", "my-dataset", "--sandbox", "local", "--output", "out/validated.jsonl"], { cwd });
    expect(validated.code).toBe(0);
    expect(JSON.parse(readFileSync(join(cwd, "out", "validated.jsonl"), "utf8"))).toMatchObject({ reward: 1 });
    expect(existsSync(join(cwd, "results", "harbor", "validation", "my-dataset", "rollouts.jsonl"))).toBe(false);
    const evaluated = await gym(["eval", "run", "my-dataset", "--agent", "harbor_oracle", "--sandbox", "local", "-o", "out/eval.jsonl", "--json"], { cwd });
    expect(evaluated.code).toBe(0);
    expect(JSON.parse(evaluated.stdout).rollouts).toBe(join(cwd, "out", "eval.jsonl"));
    expect(JSON.parse(readFileSync(join(cwd, "out", "eval.jsonl"), "utf8"))).toMatchObject({ reward: 1 });
    expect(existsSync(join(cwd, "results", "harbor", "my-dataset", "rollouts.jsonl"))).toBe(false);
    // A folder is refused before any task runs.
    const folder = await gym(["dataset", "validate", "my-dataset", "--sandbox", "local", "-o", "out"], { cwd });
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain("--output out is a directory");
  });

  sandboxed("a wrong solution: exit 1 with the verifier's reason", async () => {
    const cwd = await scaffold();
    writeFileSync(join(cwd, "my-dataset", "hello", "solution", "solve.sh"), "echo 'Goodbye' > hello.txt\n");
    const out = await gym(["dataset", "validate", "my-dataset", "--sandbox", "local", "--json"], { cwd });
    expect(out.code).toBe(1);
    const report = JSON.parse(out.stdout);
    expect(report.passed).toBe(false);
    expect(report.tasks[0]).toMatchObject({ reward: 0, oracle: "solved" });
    expect(report.tasks[0].failure_reason).toContain("content differs");
  });

  sandboxed("a solution that never returns is killed at the agent timeout; one that writes outside its workdir cannot change the host", async () => {
    const cwd = await scaffold();
    const task = join(cwd, "my-dataset", "hello");
    writeFileSync(join(task, "task.toml"), readFileSync(join(task, "task.toml"), "utf8").replace("timeout_sec = 600.0", "timeout_sec = 2"));
    const marker = join(cwd, "escaped.txt");
    writeFileSync(join(task, "solution", "solve.sh"), `echo x > ${marker}; echo x > /etc/gym-escape; sleep 1000\n`);
    const out = await gym(["dataset", "validate", "my-dataset", "--sandbox", "local"], { cwd });
    expect(out.code).toBe(1);
    expect(out.stdout).toContain("hello  oracle failed  0");
    expect(out.stdout).toContain("wall-clock limit of 2 s");
    expect(existsSync(marker)).toBe(false);
    expect(existsSync("/etc/gym-escape")).toBe(false);
  });

  sandboxed("--only-tasks selecting nothing and a folder with no task are errors; an unknown provider is refused", async () => {
    const cwd = await scaffold();
    const none = await gym(["dataset", "validate", "my-dataset", "--only-tasks", "nope-*"], { cwd });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("selects none");
    const empty = await gym(["dataset", "validate", cwd + "/results-none"], { cwd });
    expect(empty.code).toBe(1);
    const unknown = await gym(["dataset", "validate", "my-dataset", "--sandbox", "vm"], { cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("--sandbox local, --sandbox podman, --sandbox docker, --sandbox container");
  });

  sandboxed("a task folder that does not load is listed and fails the validation", async () => {
    const cwd = await scaffold();
    writeFileSync(join(cwd, "my-dataset", "hello", "task.toml"), "[agent\n");
    const out = await gym(["dataset", "validate", "my-dataset"], { cwd });
    expect(out.code).toBe(1);
    expect(out.stdout).toContain("hello  failed:");
    expect(out.stdout).toContain("task.toml");
  });

  sandboxed("gym eval run TARGET --agent harbor_oracle: reward 1 under results/harbor/<taskset>/, apart from validation; --exclude-tasks", async () => {
    const cwd = await scaffold();
    const out = await gym(["eval", "run", "my-dataset", "--agent", "harbor_oracle", "--sandbox", "local", "--json"], { cwd });
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ scored: 1, mean_reward: 1 });
    const row = JSON.parse(readFileSync(join(cwd, "results", "harbor", "my-dataset", "rollouts.jsonl"), "utf8"));
    expect(row).toMatchObject({ _ng_task_id: { taskset: "my-dataset", task_id: "hello" }, reward: 1 });
    expect(existsSync(join(cwd, "results", "harbor", "validation"))).toBe(false);
    const excluded = await gym(["eval", "run", "my-dataset", "--agent", "harbor_oracle", "--exclude-tasks", "hel*"], { cwd });
    expect(excluded.code).toBe(2);
    const noAgent = await gym(["eval", "run", "my-dataset/hello"], { cwd });
    expect(noAgent.code).toBe(2);
    expect(noAgent.stderr).toContain("--agent harbor_oracle");
  });
});

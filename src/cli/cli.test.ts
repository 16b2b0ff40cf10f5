import { beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, gym, gymBinary, repoRoot, run } from "../testing/binary.ts";

beforeAll(ensureBinary, 120_000);

describe("the compiled binary's shell", () => {
  test("--help lists the six groups and exits 0", async () => {
    const r = await gym(["--help"]);
    expect(r.code).toBe(0);
    for (const group of ["list", "search", "dataset", "env", "eval", "dev"]) expect(r.stdout).toMatch(new RegExp(`^  ${group} `, "m"));
  });

  test("no command prints help and exits 1", async () => {
    const r = await gym([]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("Usage: gym <group> <command>");
  });

  test("ng --version --json names the version, runtime and system", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gym-ng-"));
    const ng = join(dir, "ng");
    copyFileSync(join(repoRoot, "dist", "ng"), ng);
    const r = await run([ng, "--version", "--json"]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.nemo_gym).toBe("0.7.0");
    expect(report.runtime).toBe("bun");
    expect(report.system.cpus).toBeGreaterThan(0);
    // Every runtime dependency of package.json, by name, in its order.
    const declared = Object.keys(JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).dependencies);
    expect(declared).toContain("citty");
    expect(Object.keys(report.dependencies)).toEqual(declared);
    // The code sandbox and interpreter: bubblewrap or a reason there is none; python3 resolved past shims.
    expect(["bwrap", "none"]).toContain(report.sandbox.kind);
    expect(report.sandbox.kind === "bwrap" ? report.sandbox.bwrap.version : report.sandbox.reason).toBeTruthy();
    if (report.python) expect(report.python.version).toMatch(/^3\./);
  });

  test("an unknown command gets the choices and a non-zero exit", async () => {
    const r = await gym(["eval", "nope"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Unknown command 'nope' for gym eval.");
    expect(r.stderr).toContain("Choose one of:");
    const typo = await gym(["eval", "rnu"]);
    expect(typo.stderr).toContain("Did you mean 'run'?");
    const group = await gym(["evl"]);
    expect(group.code).toBe(2);
    expect(group.stderr).toContain("Did you mean 'eval'?");
  });

  test("an unknown flag gets did-you-mean and exit 2", async () => {
    const r = await gym(["eval", "run", "--concurency", "3"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Unknown option '--concurency' for gym eval run. Did you mean '--concurrency'?");
  });

  test("every group and command answers --help with exit 0", async () => {
    const root = await gym(["--help"]);
    const groups = [...root.stdout.matchAll(/^  (\w[\w-]*) /gm)].map((m) => m[1]!).filter((g) => g !== "search" && g !== "view"); // top-level commands, not groups
    for (const group of groups) {
      const help = await gym([group, "--help"]);
      expect(help.code).toBe(0);
      const commands = [...help.stdout.matchAll(/^  (\w[\w-]*) /gm)].map((m) => m[1]!);
      expect(commands.length).toBeGreaterThan(0);
      for (const command of commands) {
        const r = await gym([group, command, "--help"]);
        expect({ command: `${group} ${command}`, code: r.code }).toEqual({ command: `${group} ${command}`, code: 0 });
        expect(r.stdout).toContain(`Usage: gym ${group} ${command}`);
      }
    }
  }, 60_000);

  test("copied alone to an empty directory, the binary resolves a built-in config with secrets hidden", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gym-alone-"));
    const alone = join(dir, "gym");
    copyFileSync(gymBinary, alone);
    const r = await run(
      [alone, "env", "resolve", "--resources-server", "mcqa", "--model-type", "openai_model", "++policy_api_key=sk-secret", "++policy_base_url=http://127.0.0.1:1/v1", "++policy_model_name=m"],
      { cwd: dir },
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("mcqa_simple_agent:");
    expect(r.stdout).toContain("grading_mode:");
    expect(r.stdout).not.toContain("sk-secret");
  });
});

describe("Deno runs the same sources", () => {
  const deno = join(repoRoot, "node_modules", ".bin", "deno");

  test("--version --json", async () => {
    const r = await run([deno, "run", "-A", "src/main.ts", "--version", "--json"]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.runtime).toBe("deno");
    expect(report.nemo_gym).toBe("0.7.0");
    // Deno spawns the probes through node:child_process: the same sandbox and interpreter as under Bun.
    const underBun = JSON.parse((await run([process.execPath, "src/main.ts", "--version", "--json"])).stdout);
    expect([report.sandbox, report.python]).toEqual([underBun.sandbox, underBun.python]);
  }, 60_000);

  test("the main job runs: eval run with the embedded default writes the same rewards as under Bun", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gym-deno-run-"));
    const args = ["eval", "run", "--resources-server", "mcqa", "--model-type", "replay_model/mcqa_example", "--output"];
    const [underDeno, underBun] = await Promise.all([
      run([deno, "run", "-A", join(repoRoot, "src/main.ts"), ...args, join(dir, "deno.jsonl")], { cwd: dir }),
      run([process.execPath, join(repoRoot, "src/main.ts"), ...args, join(dir, "bun.jsonl")], { cwd: dir }),
    ]);
    expect(underDeno.code).toBe(0);
    expect(underBun.code).toBe(0);
    const rewards = (file: string) => readFileSync(join(dir, file), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l)).sort((a, b) => a._ng_task_index - b._ng_task_index).map((r) => r.reward);
    expect(rewards("deno.jsonl")).toEqual([1, 1, 0, 1, 1]);
    expect(rewards("bun.jsonl")).toEqual(rewards("deno.jsonl"));
  }, 60_000);

  test("env resolve prints the same config as Bun", async () => {
    const args = ["env", "resolve", "--resources-server", "mcqa", "--model-type", "openai_model", "++policy_api_key=sk-secret", "++policy_base_url=http://127.0.0.1:1/v1", "++policy_model_name=m"];
    const [underDeno, underBun] = await Promise.all([run([deno, "run", "-A", "src/main.ts", ...args]), run([process.execPath, "src/main.ts", ...args])]);
    expect(underDeno.code).toBe(0);
    expect(underDeno.stdout).not.toContain("sk-secret");
    // results_dir and cache_dir are absolute paths of the cwd: the same here.
    expect(underDeno.stdout).toBe(underBun.stdout);
  }, 60_000);
});

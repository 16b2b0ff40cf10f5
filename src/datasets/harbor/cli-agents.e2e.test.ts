/**
 * gym eval run TARGET --agent codex_agent | opencode_agent | claude_code_agent on the compiled binary: the real CLIs
 * (pinned npm packages) driven by a scripted model on 127.0.0.1 through gym's model server and the per-rollout
 * gateway. Each solves the scaffolded task with reward 1 under --sandbox local and podman (or docker); a hostile
 * model (a network call, writes outside, a fork bomb, rm -rf /) changes nothing on the host; kill -9 of gym leaves no
 * CLI process and no container behind.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { engineCall, engineOf, engineProblem } from "../../sandbox/container/engine.ts";
import { detectSandbox } from "../../sandbox/index.ts";
import { ensureBinary, gym, gymBinary } from "../../testing/binary.ts";
import { cliModel, type CliModel, type CliScript } from "../../testing/cli-model.ts";

const IMAGE = "debian:bookworm-slim";
const hasBwrap = (await detectSandbox()).kind === "bwrap";
if (!hasBwrap) console.warn("skip: the CLI agent tests because bubblewrap is not available (apt-get install bubblewrap)");
async function engineReady(engine: "podman" | "docker"): Promise<string | null> {
  const problem = await engineProblem(engine);
  if (problem) return problem;
  const has = await engineCall(engineOf(engine), ["image", "inspect", "--format", "{{.Id}}", IMAGE], 60);
  return has.code === 0 ? null : `${engine} has no ${IMAGE} image (scripts/ci/up-podman_image.sh makes it)`;
}
let engine: "podman" | "docker" | null = null;
const why: string[] = [];
for (const e of ["podman", "docker"] as const) {
  const problem = await engineReady(e);
  if (!problem) {
    engine = e;
    break;
  }
  why.push(problem);
}
if (!engine) console.warn(`skip: the CLI agent container tests because no container engine can start here (${why.join("; ")})`);

const AGENTS = [
  { name: "codex_agent", modelType: "openai_model" },
  { name: "opencode_agent", modelType: "vllm_model" },
  { name: "claude_code_agent", modelType: "openai_model" },
] as const;

const models: CliModel[] = [];
afterAll(() => models.forEach((m) => m.stop()));
const model = (script: CliScript) => {
  const m = cliModel(script);
  models.push(m);
  return m;
};

async function scaffold(): Promise<string> {
  const cwd = mkdtempSync(join(tmpdir(), "gym-cli-agent-test-"));
  expect((await gym(["dataset", "init", "my-dataset", "--image", IMAGE], { cwd })).code).toBe(0);
  return cwd;
}
const modelArgs = (modelType: string, m: CliModel) => ["--model-type", modelType, "--model", "scripted", "--model-url", m.url, "--model-api-key", "upstream-key"];
const SOLVE: CliScript = { commands: ["printf 'Hello, world!' > hello.txt", "cat hello.txt"], final: "hello.txt is written." };

/** Processes whose executable, as their own mount namespace names it, is the CLI or the relay inside the sandbox. */
function agentProcesses(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/exe`).startsWith("/gym-agent/bin/")) found.push(Number(entry));
    } catch {}
  }
  return found;
}

const sandboxes = [["local", hasBwrap], [engine ?? "container", engine !== null]] as const;

describe.each(sandboxes.map(([s, ok]) => [s, ok] as const))("--sandbox %s", (sandbox, ready) => {
  for (const agent of AGENTS) {
    test.skipIf(!ready)(`${agent.name} solves the scaffolded task: reward 1, every model call captured with usage, the CLI saw only the rollout token`, async () => {
      const cwd = await scaffold();
      const m = model(SOLVE);
      const out = await gym(["eval", "run", "my-dataset", "--agent", agent.name, "--sandbox", sandbox, ...modelArgs(agent.modelType, m)], { cwd });
      expect(out.stdout).toBe(`hello  ${agent.name} completed  1\n`);
      expect(out.code).toBe(0);
      const dir = join(cwd, "results", "harbor", "my-dataset");
      const row = JSON.parse(readFileSync(join(dir, "rollouts.jsonl"), "utf8"));
      expect(row).toMatchObject({ reward: 1, agent_status: "completed", failure_reason: null });
      // The gateway saw every call the upstream answered (a CLI's title call included), each with its usage.
      const answered = m.seen.filter((s) => s.path.endsWith("/responses") || s.path.endsWith("/chat/completions") || s.path.endsWith("/messages"));
      expect(row.agent_turns).toBe(answered.length);
      expect(row.usage.input_tokens).toBe(answered.reduce((t, _, i) => t + 100 + 10 * (i + 1), 0));
      // Upstream got gym's model-server credential, never the CLI's token; the CLI never got the upstream key.
      expect(new Set(m.seen.map((s) => s.credential))).toEqual(new Set(["Bearer upstream-key"]));
      const trajectory = JSON.parse(readFileSync(join(dir, "trajectories", "hello.json"), "utf8"));
      expect(trajectory).toMatchObject({ schema_version: "ATIF-v1.7", agent: { name: agent.name }, final_metrics: { total_steps: answered.length + 1 } });
      const calls = trajectory.steps.flatMap((s: { tool_calls?: { arguments: unknown }[] }) => s.tool_calls ?? []);
      expect(JSON.stringify(calls)).toContain("Hello, world!");
      const results = trajectory.steps.flatMap((s: { observation?: { results: { content: string }[] } }) => s.observation?.results ?? []);
      expect(results.map((r: { content: string }) => r.content).join("\n")).toContain("Hello, world!");
      expect(readFileSync(join(dir, "verifier", "hello", "reward.txt"), "utf8").trim()).toBe("1");
    }, 180_000);
  }
});

describe("task images under a container engine", () => {
  test.skipIf(!engine)("a docker_image that is not here is built from environment/Dockerfile; with no Dockerfile the trial is refused naming the image", async () => {
    const cwd = await scaffold();
    const task = join(cwd, "my-dataset", "hello");
    const toml = join(task, "task.toml");
    writeFileSync(toml, readFileSync(toml, "utf8").replace(`docker_image = "${IMAGE}"`, 'docker_image = "gym-test/not-pulled:1"'));
    const m = model(SOLVE);
    const built = await gym(["eval", "run", "my-dataset", "--agent", "codex_agent", "--sandbox", engine!, ...modelArgs("openai_model", m), "--json"], { cwd });
    expect(JSON.parse(built.stdout).tasks[0]).toMatchObject({ reward: 1, agent_status: "completed" });
    expect(built.stderr).toContain("Dockerfile");
    spawnSync("rm", ["-rf", join(task, "environment")]);
    const refused = await gym(["eval", "run", "my-dataset", "--agent", "codex_agent", "--sandbox", engine!, ...modelArgs("openai_model", m), "--json"], { cwd });
    const row = JSON.parse(refused.stdout).tasks[0];
    expect(row).toMatchObject({ reward: 0, mask_sample: true, failure_kind: "sandbox_error", agent_status: "not_started" });
    expect(row.failure_reason).toContain("image gym-test/not-pulled:1 is not on this machine");
  }, 300_000);
});

describe("limits", () => {
  test.skipIf(!hasBwrap)("max_turns: the call past it is refused, the rollout ends with agent_status max_turns and the tests score what is there", async () => {
    const cwd = await scaffold();
    const m = model(SOLVE);
    const key = "++codex_agent.responses_api_agents.codex_agent.max_turns=1";
    const out = await gym(["eval", "run", "my-dataset", "--agent", "codex_agent", ...modelArgs("openai_model", m), key, "--json"], { cwd });
    expect(out.code).toBe(0);
    const row = JSON.parse(out.stdout).tasks[0];
    expect(row).toMatchObject({ reward: 1, agent_status: "max_turns", agent_turns: 1 });
    expect(row.failure_reason).toContain("max_turns (1)");
    expect(m.seen.length).toBe(1);
  }, 180_000);

  test.skipIf(!hasBwrap)("the task's [agent] timeout_sec stops the CLI: agent_status agent_timeout, reward 0 with the reason", async () => {
    const cwd = await scaffold();
    const toml = join(cwd, "my-dataset", "hello", "task.toml");
    writeFileSync(toml, readFileSync(toml, "utf8").replace(/\[agent\]\ntimeout_sec = [0-9.]+/, "[agent]\ntimeout_sec = 4.0"));
    const m = model({ commands: ["sleep 2718"], final: "never" });
    const out = await gym(["eval", "run", "my-dataset", "--agent", "claude_code_agent", ...modelArgs("openai_model", m), "--json"], { cwd });
    expect(out.code).toBe(0);
    const row = JSON.parse(out.stdout).tasks[0];
    expect(row).toMatchObject({ reward: 0, agent_status: "agent_timeout" });
    expect(row.failure_reason).toContain("agent timeout (4 s)");
    expect(spawnSync("pgrep", ["-f", "sleep 2718"], { encoding: "utf8" }).stdout.trim()).toBe("");
  }, 180_000);
});

// Every CLI under the local sandbox; Codex once more under the container engine (the same layer holds the others).
const hostileCases = [...AGENTS.map((agent) => ({ agent, sandbox: "local", ready: hasBwrap })), { agent: AGENTS[0], sandbox: engine ?? "container", ready: engine !== null }];

describe("a hostile model", () => {
  for (const { agent, sandbox, ready } of hostileCases) {
    test.skipIf(!ready)(`${agent.name} under --sandbox ${sandbox}: a network call, writes outside, a fork bomb and rm -rf / change nothing on the host`, async () => {
      const cwd = await scaffold();
      const marker = join(cwd, "escaped.txt");
      const sentinel = join(cwd, "sentinel.txt");
      writeFileSync(sentinel, "still here\n");
      let connections = 0;
      const listener = createServer((socket) => {
        connections++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
      const port = (listener.address() as { port: number }).port;
      const m = model({
        commands: [
          // The echoed words are computed, so they appear in a tool result only when the shell ran them.
          `(exec 3<>/dev/tcp/127.0.0.1/${port}) && echo "loop=$((1+1))open" || echo "loop=$((2+2))closed"; (exec 3<>/dev/tcp/93.184.216.34/80) 2>/dev/null && echo "wan=$((2+3))open" || echo "wan=$((3+3))closed"`,
          `echo x > ${marker}; echo x > /etc/gym-cli-escape; echo x > /gym-agent/gw/relay.js; ls /root /work 2>&1 | head -3`,
          // The bomb's output goes to /dev/null: forks left at the process limit must not hold the tool's pipe open.
          "timeout 5 bash -c 'gymbomb(){ gymbomb | gymbomb & }; gymbomb' >/dev/null 2>&1; echo bombed",
          "rm -rf --no-preserve-root / 2>/dev/null; echo removed",
        ],
        final: "done",
      });
      const cliBefore = statSync(join("node_modules", "@openai", "codex", "package.json")).mtimeMs;
      try {
        const out = await gym(["eval", "run", "my-dataset", "--agent", agent.name, "--sandbox", sandbox, ...modelArgs(agent.modelType, m), "--json"], { cwd });
        expect(out.code).toBe(0);
        const row = JSON.parse(out.stdout).tasks[0];
        expect(row.reward).toBe(0);
        const outputs = m.seen.map((s) => JSON.stringify(s.body)).join("\n");
        expect(outputs).toContain("loop=4closed");
        expect(outputs).toContain("wan=6closed");
        expect(outputs).not.toContain("loop=2open");
        expect(outputs).not.toContain("wan=5open");
      } finally {
        listener.close();
      }
      expect(connections).toBe(0);
      expect(existsSync(marker)).toBe(false);
      expect(existsSync("/etc/gym-cli-escape")).toBe(false);
      expect(readFileSync(sentinel, "utf8")).toBe("still here\n");
      expect(existsSync(join(cwd, "my-dataset", "hello", "tests", "test.sh"))).toBe(true);
      expect(statSync(join("node_modules", "@openai", "codex", "package.json")).mtimeMs).toBe(cliBefore);
      expect(spawnSync("pgrep", ["-f", "gymbomb"], { encoding: "utf8" }).stdout.trim()).toBe("");
      expect(agentProcesses()).toEqual([]);
    }, 300_000);
  }
});

describe("dataset rows (gym eval run --input, the agent's /run)", () => {
  for (const agent of AGENTS) {
    test.skipIf(!hasBwrap)(`${agent.name} answers an mcqa row from a fresh local sandbox and the resources server scores it`, async () => {
      const cwd = mkdtempSync(join(tmpdir(), "gym-cli-agent-rows-"));
      writeFileSync(join(cwd, "agent.yaml"), `mcqa_cli_agent:\n  responses_api_agents:\n    ${agent.name}:\n      entrypoint: app.py\n      resources_server: {type: resources_servers, name: mcqa}\n      model_server: {type: responses_api_models, name: policy_model}\n      timeout: 120\n`);
      const row = { responses_create_params: { input: [{ role: "user", content: "Which letter comes second? A: first B: second. Answer in \\boxed{}." }] }, options: [{ A: "first" }, { B: "second" }], expected_answer: "B", grading_mode: "strict_single_letter_boxed", uuid: "u1" };
      writeFileSync(join(cwd, "in.jsonl"), `${JSON.stringify(row)}\n`);
      const m = model({ commands: ["echo checking"], final: "The answer is \\boxed{B}" });
      const out = await gym(["eval", "run", "--config", "agent.yaml", "--resources-server", "mcqa", ...modelArgs(agent.modelType, m), "--input", "in.jsonl", "--agent", "mcqa_cli_agent", "-o", "out.jsonl"], { cwd });
      expect(out.code).toBe(0);
      const rollout = JSON.parse(readFileSync(join(cwd, "out.jsonl"), "utf8"));
      expect(rollout).toMatchObject({ reward: 1, finished_naturally: true });
      expect(rollout.response.output.map((o: { type: string }) => o.type)).toContain("function_call_output");
      expect(rollout.response.usage.input_tokens).toBeGreaterThan(0);
    }, 180_000);
  }
});

describe("kill -9 of gym", () => {
  const cases = [["local", hasBwrap], [engine ?? "container", engine !== null]] as const;
  for (const [sandbox, ready] of cases) {
    test.skipIf(!ready)(`mid-command under --sandbox ${sandbox} leaves no CLI process and no container`, async () => {
      await ensureBinary();
      const cwd = await scaffold();
      const m = model({ commands: ["sleep 3141"], final: "never" });
      const child = spawn(gymBinary, ["eval", "run", "my-dataset", "--agent", "codex_agent", "--sandbox", sandbox, ...modelArgs("openai_model", m)], { cwd, stdio: "ignore" });
      const sleepers = () => spawnSync("pgrep", ["-f", "sleep 3141"], { encoding: "utf8" }).stdout.trim();
      const owned = () => (engine && sandbox !== "local" ? spawnSync(engine, ["ps", "-aq", "--filter", `label=gym.owner`], { env: engineOf(engine).env, encoding: "utf8" }).stdout.split("\n").filter(Boolean) : []);
      const before = new Set(owned());
      const mine = () => owned().filter((id) => !before.has(id));
      try {
        for (let i = 0; i < 240 && !sleepers(); i++) await Bun.sleep(250);
        expect(sleepers()).not.toBe("");
        expect(agentProcesses().length).toBeGreaterThan(0);
        child.kill("SIGKILL");
        for (let i = 0; i < 60 && (sleepers() || agentProcesses().length || mine().length); i++) await Bun.sleep(500);
        expect(sleepers()).toBe("");
        expect(agentProcesses()).toEqual([]);
        expect(mine()).toEqual([]);
      } finally {
        child.kill("SIGKILL");
      }
    }, 180_000);
  }
});

/**
 * Coding-agent CLIs: what gym adds around a rollout. The peer is what a user would otherwise run: the same CLI
 * (`codex exec`, `claude -p`) on the host, with its own HOME pointed straight at the same scripted model on
 * loopback, writing hello.txt. gym runs it as `gym eval run my-dataset --agent <name>` (the scaffolded Harbor task):
 * a local bubblewrap sandbox, the rollout gateway and relay, the model server between, then the task's tests.
 * Printed: median wall seconds per rollout of each, interleaved, and the ratio.
 *
 * Knobs: GYM_BENCH_RUNS (3), GYM_BENCH_AGENTS (codex_agent,claude_code_agent).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { claudeCodeAgent } from "../../src/components/responses_api_agents/claude_code_agent/definition.ts";
import { codexAgent } from "../../src/components/responses_api_agents/codex_agent/definition.ts";
import { findCli } from "../../src/components/responses_api_agents/_cli_agent/cli.ts";
import { binary, median, requireBinary } from "./_util.ts";

requireBinary();
const runs = Math.max(1, Number(process.env.GYM_BENCH_RUNS ?? 3));
const agents = (process.env.GYM_BENCH_AGENTS ?? "codex_agent,claude_code_agent").split(",");
const script = { commands: ["printf 'Hello, world!' > hello.txt", "cat hello.txt"], final: "done" };
const root = mkdtempSync(join(tmpdir(), "gym-bench-cli-"));
spawnSync(binary, ["dataset", "init", "my-dataset", "--image", "debian:bookworm-slim"], { cwd: root, stdio: "ignore" });

function timed(run: () => void): number {
  const started = performance.now();
  run();
  return (performance.now() - started) / 1000;
}

function direct(agent: string, url: string, i: number): void {
  const work = join(root, `direct-${agent}-${i}`);
  const home = join(work, "home");
  mkdirSync(join(home, ".codex"), { recursive: true });
  const origin = url.replace(/\/v1$/, "");
  if (agent === "codex_agent") {
    writeFileSync(join(home, ".codex", "config.toml"), `model = "scripted"\nmodel_provider = "m"\napproval_policy = "never"\nsandbox_mode = "danger-full-access"\n[model_providers.m]\nname = "m"\nbase_url = "${url}"\nenv_key = "OPENAI_API_KEY"\nwire_api = "responses"\n`);
    const cli = findCli(codexAgent.cli);
    spawnSync(cli.executable, ["exec", "--json", "--ephemeral", "--skip-git-repo-check", "--cd", work, "--", "Create hello.txt"], { cwd: work, env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: join(home, ".codex"), OPENAI_API_KEY: "k" }, stdio: "ignore" });
  } else {
    const cli = findCli(claudeCodeAgent.cli);
    spawnSync(cli.executable, ["-p", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions", "--bare", "--model", "scripted", "--", "Create hello.txt"], { cwd: work, env: { PATH: process.env.PATH, HOME: home, ANTHROPIC_BASE_URL: origin, ANTHROPIC_AUTH_TOKEN: "k", IS_SANDBOX: "1", CLAUDE_CONFIG_DIR: join(home, ".claude") }, stdio: "ignore" });
  }
}

function viaGym(agent: string, url: string): void {
  const out = spawnSync(binary, ["eval", "run", "my-dataset", "--agent", agent, "--model-type", "openai_model", "--model", "scripted", "--model-url", url, "--model-api-key", "k"], { cwd: root, encoding: "utf8" });
  if (!out.stdout.includes("completed  1")) throw new Error(`gym eval run --agent ${agent} did not score 1: ${out.stdout}${out.stderr.slice(-500)}`);
}

/** The scripted model in its own process (spawnSync blocks this one's event loop); resolves to its URL. */
async function startModel(): Promise<{ url: string; stop(): void }> {
  const code = `import { cliModel } from ${JSON.stringify(join(import.meta.dir, "../../src/testing/cli-model.ts"))}; const m = cliModel(${JSON.stringify(script)}); console.log(m.url); setInterval(() => {}, 1e6);`;
  const child = Bun.spawn([process.execPath, "-e", code], { stdout: "pipe", stderr: "ignore" });
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  return { url: text.trim(), stop: () => child.kill() };
}

const rows: string[] = [];
for (const agent of agents) {
  const times = { direct: [] as number[], gym: [] as number[] };
  for (let i = 0; i < runs; i++) {
    const a = await startModel();
    times.direct.push(timed(() => direct(agent, a.url, i)));
    a.stop();
    const b = await startModel();
    times.gym.push(timed(() => viaGym(agent, b.url)));
    b.stop();
  }
  for (let i = 0; i < runs; i++) if (!existsSync(join(root, `direct-${agent}-${i}`, "hello.txt"))) throw new Error(`the direct ${agent} run ${i} did not write hello.txt`);
  const [d, g] = [median(times.direct), median(times.gym)];
  rows.push(`${agent.padEnd(18)} CLI on the host ${d.toFixed(2)} s   gym eval run (sandbox + gateway + tests) ${g.toFixed(2)} s   ratio ${(g / d).toFixed(2)}x`);
}
console.log(`median of ${runs} interleaved runs, one rollout each (scaffolded hello task, scripted model on loopback):`);
for (const row of rows) console.log(row);

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, gym, gymBinary } from "../../../testing/binary.ts";
import { writeMcqaDataset } from "../../../testing/datasets.ts";

const HARNESS = "non_executing_simple_agent";
const HARNESS_CONFIG = `responses_api_agents/${HARNESS}/configs/${HARNESS}.yaml`;
const COMPOSED = "mcqa_non_executing_simple_agent";
const lines = (path: string) => readFileSync(path, "utf8").trimEnd().split("\n").filter(Boolean).map((l) => JSON.parse(l));

let dir: string;
// NEMO_GYM_ALLOW_UNSUPPORTED_PAIRING from the caller's shell must not leak into the refusal tests.
const env = { NEMO_GYM_ALLOW_UNSUPPORTED_PAIRING: "" };
const run = (args: string[], extraEnv: Record<string, string> = {}) => gym(args, { cwd: dir, env: { ...env, ...extraEnv } });

beforeAll(async () => {
  await ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "gym-harness-"));
  writeMcqaDataset(join(dir, "tasks.jsonl"), 3);
}, 120_000);

const REFUSAL = [
  `Error: '${HARNESS}' is not declared compatible with 1 of the agent instance(s) it would replace,`,
  "so it cannot be scored correctly:",
  "  - example_single_tool_call_simple_agent uses example_single_tool_call",
  "    and accepts simple_agent",
  "Select one of: simple_agent. Or pass",
  "--allow-unsupported-pairing (or set NEMO_GYM_ALLOW_UNSUPPORTED_PAIRING=1) to bypass the check.",
].join("\n");

describe("--agent-type on env validate (compiled binary)", () => {
  test("mcqa accepts non_executing_simple_agent: the composed instance replaces mcqa_simple_agent", async () => {
    const r = await run(["env", "validate", "--resources-server", "mcqa", "--agent-type", HARNESS]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`✓ Config is valid: 3 server instance(s): mcqa (resources_servers/mcqa), ${COMPOSED} (responses_api_agents/${HARNESS}), policy_model (responses_api_models/dummy_model).\n`);
  });

  test("--agent-type X and --config responses_api_agents/X/configs/X.yaml behave identically", async () => {
    const viaFlag = await run(["env", "validate", "--json", "--resources-server", "mcqa", "--agent-type", HARNESS]);
    const viaConfig = await run(["env", "validate", "--json", "--resources-server", "mcqa", "--config", HARNESS_CONFIG]);
    expect([viaFlag.code, viaConfig.code]).toEqual([0, 0]);
    const a = JSON.parse(viaFlag.stdout);
    const b = JSON.parse(viaConfig.stdout);
    expect(b.server_instances).toEqual(a.server_instances);
    expect(a.server_instances.map((i: { name: string }) => i.name)).toContain(COMPOSED);
    expect({ ...b, config_paths: [], files: [] }).toEqual({ ...a, config_paths: [], files: [] });
    // Both load the same files (--config values come before the selectors, so the order differs; the swap does not depend on it).
    expect([...b.files].sort()).toEqual([...a.files].sort());
    const refusedFlag = await run(["env", "validate", "--resources-server", "example_single_tool_call", "--agent-type", HARNESS]);
    const refusedConfig = await run(["env", "validate", "--resources-server", "example_single_tool_call", "--config", HARNESS_CONFIG]);
    expect(refusedConfig).toEqual(refusedFlag);
  });

  test("example_single_tool_call refuses it (exit 1, the documented message); the flag and the environment variable bypass", async () => {
    const refused = await run(["env", "validate", "--resources-server", "example_single_tool_call", "--agent-type", HARNESS]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr.trimEnd()).toBe(REFUSAL);
    for (const [args, extraEnv] of [[["--allow-unsupported-pairing"], {}], [[], { NEMO_GYM_ALLOW_UNSUPPORTED_PAIRING: "1" }]] as const) {
      const r = await run(["env", "validate", "--resources-server", "example_single_tool_call", "--agent-type", HARNESS, ...args], extraEnv);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`example_single_tool_call_${HARNESS} (responses_api_agents/${HARNESS})`);
      expect(r.stderr).toContain(`Warning: '${HARNESS}' is not declared compatible with 1 of the agent instance(s)`);
    }
  });
});

describe("--agent-type on eval run (compiled binary, mock_model)", () => {
  test("rows carry the composed instance's name, and --config gives the same rollouts", async () => {
    const outputs: Record<string, unknown>[][] = [];
    for (const selector of [["--agent-type", HARNESS], ["--config", HARNESS_CONFIG]]) {
      const out = join(dir, `run-${outputs.length}`, "rollouts.jsonl");
      const r = await run(["eval", "run", "--resources-server", "mcqa", ...selector, "--model-type", "mock_model", "--split", "example", "--output", out]);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`Metrics for ${COMPOSED}:`);
      outputs.push(lines(out));
    }
    const [a, b] = outputs as [Record<string, any>[], Record<string, any>[]];
    expect(a.length).toBe(5);
    expect(new Set(a.map((row) => row.agent_ref.name))).toEqual(new Set([COMPOSED]));
    // One model call per rollout: a single assistant message, no tool outputs.
    for (const row of a) expect(row.response.output.map((i: { type: string }) => i.type)).toEqual(["message"]);
    const key = (rows: Record<string, any>[]) => rows.map((row) => [row._ng_task_index, row._ng_rollout_index, row.agent_ref.name, row.reward]).sort();
    expect(key(b)).toEqual(key(a));
  });

  test("rows collected before the swap (agent_ref.name mcqa_simple_agent) are re-routed to the composed instance", async () => {
    const before = join(dir, "before.jsonl");
    writeFileSync(before, lines(join(dir, "tasks.jsonl")).map((row) => `${JSON.stringify({ ...row, agent_ref: { name: "mcqa_simple_agent" } })}\n`).join(""));
    const out = join(dir, "rerouted", "rollouts.jsonl");
    const r = await run(["eval", "run", "--resources-server", "mcqa", "--agent-type", HARNESS, "--model-type", "mock_model", "--input", before, "--output", out]);
    expect(r.code).toBe(0);
    const rows = lines(out);
    expect(rows).toHaveLength(3);
    expect(rows.map((row) => row.agent_ref.name)).toEqual([COMPOSED, COMPOSED, COMPOSED]);
    // Without the swap, the same rows still run on mcqa_simple_agent.
    const plain = await run(["eval", "run", "--resources-server", "mcqa", "--model-type", "mock_model", "--input", before, "--output", join(dir, "plain", "rollouts.jsonl")]);
    expect(plain.code).toBe(0);
    expect(lines(join(dir, "plain", "rollouts.jsonl")).map((row) => row.agent_ref.name)).toEqual(["mcqa_simple_agent", "mcqa_simple_agent", "mcqa_simple_agent"]);
  });

  test("--agent naming the replaced instance is refused before anything starts", async () => {
    const out = join(dir, "refused", "rollouts.jsonl");
    const r = await run(["eval", "run", "--resources-server", "mcqa", "--agent-type", HARNESS, "--model-type", "mock_model", "--split", "example", "--agent", "mcqa_simple_agent", "--output", out]);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd()).toBe(
      [
        "Error: Routing names agent instances that no longer exist once the agent is swapped:",
        "  - agent_name: 'mcqa_simple_agent' is now",
        `    '${COMPOSED}'`,
        "Use the name the composed config reports.",
      ].join("\n"),
    );
  });

  test("example_single_tool_call with non_executing_simple_agent is refused", async () => {
    const r = await run(["eval", "run", "--resources-server", "example_single_tool_call", "--agent-type", HARNESS, "--model-type", "mock_model", "--split", "example", "--output", join(dir, "x", "r.jsonl")]);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd()).toBe(REFUSAL);
  });
});

const children: ReturnType<typeof spawn>[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

test("env start prints the composed instance list (the name a later `eval run --no-serve --agent` needs)", async () => {
  const child = spawn(gymBinary, ["env", "start", "--resources-server", "mcqa", "--agent-type", HARNESS, "--model-type", "mock_model", "--json", "+head_server.port=0"], {
    cwd: dir,
    env: { ...process.env, ...env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const instances = await new Promise<{ process_name: string; server_type: string; name: string }[]>((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      stdout += d;
      if (stdout.includes("\n")) resolve(JSON.parse(stdout.split("\n")[0]!));
    });
    child.on("exit", (code) => reject(new Error(`env start exited ${code}: ${stderr}`)));
  });
  expect(instances.map((i) => `${i.process_name} ${i.server_type}/${i.name}`).sort()).toEqual([
    "mcqa resources_servers/mcqa",
    `${COMPOSED} responses_api_agents/${HARNESS}`,
    "policy_model responses_api_models/mock_model",
  ]);
  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}, 60_000);

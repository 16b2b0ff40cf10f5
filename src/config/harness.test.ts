import { describe, expect, test } from "bun:test";
import { GymError } from "../errors.ts";
import type { ConfigMap } from "./_tree.ts";
import { checkRouting, composeHarness, swappedName } from "./harness.ts";
import { parseYamlMapping } from "./yaml.ts";

/** The 0.7.0 docs' running example: Terminal-Bench 2.1 configured for the OpenCode harness. */
const TERMINAL_BENCH = `
terminal_bench_2_1_opencode_resources_server:
  resources_servers:
    terminal_bench:
      entrypoint: app.py
      domain: agent
      compatible_agents: [opencode_sandboxed_agent, terminus_2_sandboxed_agent]
terminal_bench_2_1_opencode_sandboxed_agent:
  responses_api_agents:
    opencode_sandboxed_agent:
      entrypoint: app.py
      opencode_version: 1.2.3
      resources_server: {type: resources_servers, name: terminal_bench_2_1_opencode_resources_server}
      model_server: {type: responses_api_models, name: policy_model}
      datasets:
      - {name: benchmark, type: benchmark, jsonl_fpath: benchmarks/terminal_bench_2_1/data/tasks.jsonl}
policy_model:
  responses_api_models:
    vllm_model: {entrypoint: app.py}
`;

const harness = (type: string, extra = "") => `
${type}:
  responses_api_agents:
    ${type}:
      entrypoint: app.py${extra}
      resources_server: {type: resources_servers, name: ???}
      model_server: {type: responses_api_models, name: harness_default_model}
`;

const tree = (...parts: string[]): ConfigMap => parseYamlMapping(parts.join("\n"), "test.yaml");

function failure(fn: () => unknown): GymError {
  try {
    fn();
  } catch (error) {
    if (error instanceof GymError) return error;
    throw error;
  }
  throw new Error("expected a GymError");
}

describe("composeHarness (spec §3.5)", () => {
  test("the harness block replaces the environment instance, renamed after the new type, keeping its resources_server, model_server and datasets", () => {
    const { tree: out, swap, warnings } = composeHarness(tree(TERMINAL_BENCH, harness("terminus_2_sandboxed_agent", "\n      max_turns: 50")));
    expect(warnings).toEqual([]);
    // Same position in the tree; the harness's own instance is gone.
    expect(Object.keys(out)).toEqual(["terminal_bench_2_1_opencode_resources_server", "terminal_bench_2_1_terminus_2_sandboxed_agent", "policy_model"]);
    expect(out.terminal_bench_2_1_terminus_2_sandboxed_agent).toEqual({
      responses_api_agents: {
        terminus_2_sandboxed_agent: {
          entrypoint: "app.py",
          max_turns: 50,
          resources_server: { type: "resources_servers", name: "terminal_bench_2_1_opencode_resources_server" },
          model_server: { type: "responses_api_models", name: "policy_model" },
          datasets: [{ name: "benchmark", type: "benchmark", jsonl_fpath: "benchmarks/terminal_bench_2_1/data/tasks.jsonl" }],
        },
      },
    });
    expect(swap).toEqual({
      agentType: "terminus_2_sandboxed_agent",
      harnessInstance: "terminus_2_sandboxed_agent",
      replaced: [{ from: "terminal_bench_2_1_opencode_sandboxed_agent", to: "terminal_bench_2_1_terminus_2_sandboxed_agent", fromType: "opencode_sandboxed_agent", resourcesServer: "terminal_bench_2_1_opencode_resources_server" }],
      renamed: { terminal_bench_2_1_opencode_sandboxed_agent: "terminal_bench_2_1_terminus_2_sandboxed_agent" },
    });
  });

  test("a name without the old type gets _<new type> appended", () => {
    expect(swappedName("tb_opencode_sandboxed_agent", "opencode_sandboxed_agent", "terminus_2_sandboxed_agent")).toBe("tb_terminus_2_sandboxed_agent");
    expect(swappedName("my_env_agent", "simple_agent", "non_executing_simple_agent")).toBe("my_env_agent_non_executing_simple_agent");
    const base = TERMINAL_BENCH.replaceAll("terminal_bench_2_1_opencode_sandboxed_agent", "tb_runner");
    const { tree: out } = composeHarness(tree(base, harness("terminus_2_sandboxed_agent")));
    expect(Object.keys(out)).toContain("tb_runner_terminus_2_sandboxed_agent");
  });

  test("an undeclared pairing is refused with the documented message", () => {
    const error = failure(() => composeHarness(tree(TERMINAL_BENCH, harness("simple_agent"))));
    expect(error.code).toBe("E_CONFIG");
    expect(error.exitCode).toBe(1);
    expect(error.message).toBe(
      [
        "'simple_agent' is not declared compatible with 1 of the agent instance(s) it would replace,",
        "so it cannot be scored correctly:",
        "  - terminal_bench_2_1_opencode_sandboxed_agent uses terminal_bench_2_1_opencode_resources_server",
        "    and accepts opencode_sandboxed_agent, terminus_2_sandboxed_agent",
        "Select one of: opencode_sandboxed_agent, terminus_2_sandboxed_agent. Or pass",
        "--allow-unsupported-pairing (or set NEMO_GYM_ALLOW_UNSUPPORTED_PAIRING=1) to bypass the check.",
      ].join("\n"),
    );
  });

  test("allowing the pairing composes anyway and warns", () => {
    const { tree: out, warnings } = composeHarness(tree(TERMINAL_BENCH, harness("simple_agent")), { allowUnsupportedPairing: true });
    expect(Object.keys(out)).toContain("terminal_bench_2_1_simple_agent");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("'simple_agent' is not declared compatible with 1 of the agent instance(s)");
    expect(warnings[0]).toContain("Continuing anyway");
  });

  test("without any declaration only the current type is accepted; compatible_agents may also sit on the agent instance", () => {
    const bare = TERMINAL_BENCH.replace("      compatible_agents: [opencode_sandboxed_agent, terminus_2_sandboxed_agent]\n", "");
    const error = failure(() => composeHarness(tree(bare, harness("terminus_2_sandboxed_agent"))));
    expect(error.message).toContain("    and accepts opencode_sandboxed_agent\nSelect one of: opencode_sandboxed_agent. Or pass");
    const onInstance = bare.replace("      opencode_version: 1.2.3\n", "      opencode_version: 1.2.3\n      compatible_agents: [terminus_2_sandboxed_agent]\n");
    expect(Object.keys(composeHarness(tree(onInstance, harness("terminus_2_sandboxed_agent"))).tree)).toContain("terminal_bench_2_1_terminus_2_sandboxed_agent");
  });

  test("every refusing instance is listed; the suggestion is what they all accept", () => {
    const two = `${TERMINAL_BENCH}
other_opencode_sandboxed_agent:
  responses_api_agents:
    opencode_sandboxed_agent:
      entrypoint: app.py
      resources_server: {type: resources_servers, name: terminal_bench_2_1_opencode_resources_server}
      datasets: [{name: example, type: example, jsonl_fpath: x.jsonl}]
      compatible_agents: [claude_code_agent]
`;
    const error = failure(() => composeHarness(tree(two, harness("simple_agent"))));
    expect(error.message.split("\n").slice(0, 7)).toEqual([
      "'simple_agent' is not declared compatible with 2 of the agent instance(s) it would replace,",
      "so it cannot be scored correctly:",
      "  - terminal_bench_2_1_opencode_sandboxed_agent uses terminal_bench_2_1_opencode_resources_server",
      "    and accepts opencode_sandboxed_agent, terminus_2_sandboxed_agent",
      "  - other_opencode_sandboxed_agent uses terminal_bench_2_1_opencode_resources_server",
      "    and accepts opencode_sandboxed_agent, terminus_2_sandboxed_agent, claude_code_agent",
      "Select one of: opencode_sandboxed_agent, terminus_2_sandboxed_agent. Or pass",
    ]);
  });

  test("swapping in the type an instance already runs keeps it as it is; the harness instance is still dropped", () => {
    const input = tree(TERMINAL_BENCH, harness("opencode_sandboxed_agent"));
    const { tree: out, swap } = composeHarness(input);
    expect(Object.keys(out)).toEqual(["terminal_bench_2_1_opencode_resources_server", "terminal_bench_2_1_opencode_sandboxed_agent", "policy_model"]);
    expect(out.terminal_bench_2_1_opencode_sandboxed_agent).toEqual(input.terminal_bench_2_1_opencode_sandboxed_agent!);
    expect(swap?.renamed).toEqual({});
  });

  test("no harness, or nothing to compose it onto: the tree is returned as is (a bare harness keeps its ???)", () => {
    const plain = tree(TERMINAL_BENCH);
    expect(composeHarness(plain).tree).toBe(plain);
    const bare = tree(harness("simple_agent"));
    const result = composeHarness(bare);
    expect(result.tree).toBe(bare);
    expect(result.swap).toBeUndefined();
  });

  test("two harnesses are ambiguous; a renamed instance may not collide with an existing entry", () => {
    expect(failure(() => composeHarness(tree(TERMINAL_BENCH, harness("simple_agent"), harness("terminus_2_sandboxed_agent")))).message).toContain("2 agent harnesses");
    const taken = `${TERMINAL_BENCH}terminal_bench_2_1_terminus_2_sandboxed_agent: {note: already here}\n`;
    expect(failure(() => composeHarness(tree(taken, harness("terminus_2_sandboxed_agent")))).message).toContain("already has an entry named 'terminal_bench_2_1_terminus_2_sandboxed_agent'");
  });
});

describe("checkRouting", () => {
  const renamed = { terminal_bench_2_1_opencode_sandboxed_agent: "terminal_bench_2_1_terminus_2_sandboxed_agent" };

  test("agent_name naming a replaced instance: the documented message", () => {
    const error = failure(() => checkRouting({ agent_name: "terminal_bench_2_1_opencode_sandboxed_agent" }, renamed));
    expect(error.exitCode).toBe(1);
    expect(error.message).toBe(
      [
        "Routing names agent instances that no longer exist once the agent is swapped:",
        "  - agent_name: 'terminal_bench_2_1_opencode_sandboxed_agent' is now",
        "    'terminal_bench_2_1_terminus_2_sandboxed_agent'",
        "Use the name the composed config reports.",
      ].join("\n"),
    );
  });

  test("agent_map values, fan_out entries and num_repeats keys are checked too; current names pass", () => {
    const old = "terminal_bench_2_1_opencode_sandboxed_agent";
    const error = failure(() => checkRouting({ agent_map: { tb: old, _default: "x" }, fan_out: ["y", { agent: old }], num_repeats: { [old]: 4 } }, renamed));
    expect(error.message.split("\n").filter((l) => l.startsWith("  - "))).toEqual([`  - agent_map.tb: '${old}' is now`, `  - fan_out[1].agent: '${old}' is now`, `  - num_repeats.${old}: '${old}' is now`]);
    expect(() => checkRouting({ agent_name: "terminal_bench_2_1_terminus_2_sandboxed_agent", agent_map: { [old]: "terminal_bench_2_1_terminus_2_sandboxed_agent" } }, renamed)).not.toThrow();
  });
});

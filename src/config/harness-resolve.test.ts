import { describe, expect, test } from "bun:test";
import { tmpdir } from "node:os";
import { GymError } from "../errors.ts";
import { noModelSeed } from "./_steps.ts";
import { resolveConfig, type ResolveConfigOptions } from "./resolve.ts";
import { componentRoots } from "./roots.ts";
import { selectorPath } from "./selectors.ts";

// The built-in components: mcqa declares non_executing_simple_agent compatible, example_single_tool_call does not.
const cwd = tmpdir();
const roots = componentRoots({ cwd, env: {} });
const server = (name: string) => selectorPath("resources-server", name, roots);
const agent = (name: string) => selectorPath("agent-type", name, roots);
const run = (options: ResolveConfigOptions) => resolveConfig({ cwd, env: {}, skipEnvYaml: true, seed: noModelSeed(), ...options });

async function failure(options: ResolveConfigOptions): Promise<GymError> {
  try {
    await run(options);
  } catch (error) {
    if (error instanceof GymError) return error;
    throw error;
  }
  throw new Error("expected the parse to fail");
}

describe("the harness swap inside resolveConfig (built-in mcqa, non_executing_simple_agent)", () => {
  test("mcqa_simple_agent becomes mcqa_non_executing_simple_agent with mcqa's datasets; the bare harness's ??? is never reported", async () => {
    const config = await run({ configPaths: [await server("mcqa"), await agent("non_executing_simple_agent")] });
    expect(config.serverInstances.map((i) => `${i.name}:${i.implementation}`)).toEqual(["mcqa:mcqa", "mcqa_non_executing_simple_agent:non_executing_simple_agent", "policy_model:dummy_model"]);
    const block = config.serverInstances[1]!.config;
    expect(block.resources_server).toEqual({ type: "resources_servers", name: "mcqa" });
    expect(block.model_server).toEqual({ type: "responses_api_models", name: "policy_model" });
    expect((block.datasets as { name: string }[]).map((d) => d.name)).toEqual(["train", "validation", "example", "example_with_template_metadata"]);
    expect(config.renamedAgents).toEqual({ mcqa_simple_agent: "mcqa_non_executing_simple_agent" });
    expect(config.harnessSwap?.harnessInstance).toBe("non_executing_simple_agent");
    expect(Object.hasOwn(config.tree, "non_executing_simple_agent")).toBe(false);
    expect(Object.hasOwn(config.tree, "mcqa_simple_agent")).toBe(false);
    // Errors keep naming the file each key came from.
    const inner = ["mcqa_non_executing_simple_agent", "responses_api_agents", "non_executing_simple_agent"];
    expect(config.originOf([...inner, "datasets", 0, "jsonl_fpath"])).toEndWith("resources_servers/mcqa/configs/mcqa.yaml");
    expect(config.originOf([...inner, "entrypoint"])).toEndWith("responses_api_agents/non_executing_simple_agent/configs/non_executing_simple_agent.yaml");
  });

  test("the harness given before the environment composes the same way (config content decides, not order or flag)", async () => {
    const a = await run({ configPaths: [await server("mcqa"), await agent("non_executing_simple_agent")] });
    const b = await run({ configPaths: [await agent("non_executing_simple_agent"), await server("mcqa")] });
    expect(b.serverInstances.map((i) => i.name).sort()).toEqual(a.serverInstances.map((i) => i.name).sort());
    expect(b.serverInstances.find((i) => i.name === "mcqa_non_executing_simple_agent")!.config).toEqual(a.serverInstances.find((i) => i.name === "mcqa_non_executing_simple_agent")!.config);
  });

  test("simple_agent onto mcqa changes nothing", async () => {
    const plain = await run({ configPaths: [await server("mcqa")] });
    const swapped = await run({ configPaths: [await server("mcqa"), await agent("simple_agent")] });
    expect({ ...swapped.tree, config_paths: null }).toEqual({ ...plain.tree, config_paths: null });
    expect(swapped.renamedAgents).toEqual({});
  });

  test("example_single_tool_call refuses non_executing_simple_agent; the option and the environment variable bypass it", async () => {
    const configPaths = [await server("example_single_tool_call"), await agent("non_executing_simple_agent")];
    const error = await failure({ configPaths });
    expect(error.exitCode).toBe(1);
    expect(error.message).toBe(
      [
        "'non_executing_simple_agent' is not declared compatible with 1 of the agent instance(s) it would replace,",
        "so it cannot be scored correctly:",
        "  - example_single_tool_call_simple_agent uses example_single_tool_call",
        "    and accepts simple_agent",
        "Select one of: simple_agent. Or pass",
        "--allow-unsupported-pairing (or set NEMO_GYM_ALLOW_UNSUPPORTED_PAIRING=1) to bypass the check.",
      ].join("\n"),
    );
    for (const options of [{ allowUnsupportedPairing: true }, { env: { NEMO_GYM_ALLOW_UNSUPPORTED_PAIRING: "1" } }]) {
      const config = await run({ configPaths, ...options });
      expect(config.serverInstances.map((i) => i.name)).toContain("example_single_tool_call_non_executing_simple_agent");
      expect(config.warnings.join("\n")).toContain("'non_executing_simple_agent' is not declared compatible");
    }
    expect((await failure({ configPaths, env: { NEMO_GYM_ALLOW_UNSUPPORTED_PAIRING: "0" } })).message).toContain("is not declared compatible");
  });

  test("--agent (agent_name) naming the replaced instance is refused", async () => {
    const error = await failure({ configPaths: [await server("mcqa"), await agent("non_executing_simple_agent")], flagValues: { agent_name: "mcqa_simple_agent" } });
    expect(error.message).toBe(
      "Routing names agent instances that no longer exist once the agent is swapped:\n  - agent_name: 'mcqa_simple_agent' is now\n    'mcqa_non_executing_simple_agent'\nUse the name the composed config reports.",
    );
    const ok = await run({ configPaths: [await server("mcqa"), await agent("non_executing_simple_agent")], flagValues: { agent_name: "mcqa_non_executing_simple_agent" } });
    expect(ok.tree.agent_name).toBe("mcqa_non_executing_simple_agent");
  });

  test("a bare harness alone still reports its ???", async () => {
    const error = await failure({ configPaths: [await agent("non_executing_simple_agent")] });
    expect(error.code).toBe("E_CONFIG_MANDATORY");
    expect(error.message).toContain("non_executing_simple_agent.responses_api_agents.non_executing_simple_agent.resources_server.name");
  });
});

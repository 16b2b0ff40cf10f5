import { describe, expect, test } from "bun:test";
import { gym } from "../testing/binary.ts";
import { definedInstances, overlayBase, overriddenInstances } from "./overlays.ts";
import { componentRoots } from "./roots.ts";
import { selectorPaths } from "./selectors.ts";

const base = { srv: { resources_servers: { impl: { entrypoint: "app.py", x: 1 } } }, agent: { responses_api_agents: { simple_agent: { entrypoint: "app.py" } } } };
const overlay = { srv: { resources_servers: { impl: { x: 2 } } }, judge: { responses_api_models: { local_vllm_model: { entrypoint: "app.py" } } } };

describe("overlay configs (server blocks without an entrypoint, composed after their base)", () => {
  test("defined and overridden instances; the base is the sibling that defines every overridden instance", () => {
    expect([definedInstances(overlay), overriddenInstances(overlay)]).toEqual([["judge"], ["srv"]]);
    expect(overlayBase(overlay, [["other.yaml", { srv: { resources_servers: { impl: {} } } }], ["impl.yaml", base]], "impl.yaml")).toBe("impl.yaml");
    expect(overlayBase(overlay, [["other.yaml", {}]])).toBeUndefined();
    expect(overlayBase(base, [["overlay.yaml", overlay]])).toBeUndefined();
  });

  test("--resources-server math_with_judge/math_with_local_judge loads math_with_judge.yaml first; a plain flavor loads alone", async () => {
    const roots = componentRoots({ searchDirs: [] });
    const dir = "<built-in>/resources_servers/math_with_judge/configs";
    expect(await selectorPaths("resources-server", "math_with_judge/math_with_local_judge", roots)).toEqual([`${dir}/math_with_judge.yaml`, `${dir}/math_with_local_judge.yaml`]);
    expect(await selectorPaths("resources-server", "math_with_judge/dapo17k", roots)).toEqual([`${dir}/dapo17k.yaml`]);
    expect(await selectorPaths("resources-server", "math_with_judge", roots)).toEqual([`${dir}/math_with_judge.yaml`]);
  });

  test("on the binary: the merged config keeps the base's server and takes the overlay's local judge", async () => {
    const r = await gym(["env", "resolve", "--resources-server", "math_with_judge/math_with_local_judge", "--model-type", "vllm_model", "++policy_base_url=http://127.0.0.1:9/v1", "++policy_api_key=k", "++policy_model_name=m"]);
    expect(r.stderr).not.toContain("Error");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/math_with_judge:\n {2}resources_servers:\n {4}math_with_judge:\n {6}entrypoint: app.py\n {6}judge_model_server:\n {8}type: responses_api_models\n {8}name: qwen3_30ba3b_instruct_2507_model_server/);
    expect(r.stdout).toContain("should_use_judge: true");
    expect(r.stdout).toContain("model: Qwen/Qwen3-30B-A3B-Instruct-2507");
  }, 60_000);
});

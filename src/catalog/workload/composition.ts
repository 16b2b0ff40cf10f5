/** What a workload's config composes (the fields a manifest mirrors), read from the resolved config without starting anything. */
import { GymError } from "../../errors.ts";
import { isMapping, type ResolvedConfig, type ResolvedServerInstance } from "../../config/index.ts";

export interface ResolvedComponent {
  role: "resources_server" | "agent_server" | "model_server";
  name: string;
  implementation: string;
  boundary: string;
}

/** The manifest fields that mirror the config; the config is authoritative for them. */
export interface Composition {
  resources_server: string | null;
  agent_server: string | null;
  model_server: string | null;
  datasets: Record<string, unknown>[] | null;
  rollout_driver: string | null;
  grading_mode: string | null;
}

export const MIRRORED = ["resources_server", "agent_server", "model_server", "datasets", "rollout_driver", "grading_mode"] as const;
const DATASET_FIELDS = ["name", "type", "jsonl_fpath", "prepare_script", "prompt_config", "num_repeats"];

/** The one agent instance that carries datasets, and what it composes. */
export function resolveComposition(config: ResolvedConfig): { composition: Composition; components: ResolvedComponent[]; resources?: ResolvedServerInstance } {
  const agents = config.serverInstances.filter((i) => i.serverType === "responses_api_agents" && Array.isArray(i.config.datasets) && i.config.datasets.length > 0);
  if (agents.length !== 1) {
    const found = agents.map((a) => `${a.name} (${a.implementation})`).join(", ") || "none";
    throw new GymError("E_CONFIG", `A workload config must define exactly one dataset-bearing agent instance; found: ${found}.`, {
      hint: "Give datasets to exactly one agent block in config.yaml.",
    });
  }
  const agent = agents[0]!;
  const refName = (key: string) => {
    const ref = agent.config[key];
    return isMapping(ref) && typeof ref.name === "string" ? ref.name : undefined;
  };
  const resources = config.serverInstances.find((i) => i.name === refName("resources_server"));
  const modelName = refName("model_server");
  const model = config.serverInstances.find((i) => i.name === modelName);
  const grading = resources?.config.grading_mode;
  const datasets = (agent.config.datasets as Record<string, unknown>[]).map((d) => Object.fromEntries(DATASET_FIELDS.filter((k) => d[k] !== undefined && d[k] !== null).map((k) => [k, d[k]])));
  const components: ResolvedComponent[] = [];
  if (resources) components.push({ role: "resources_server", name: resources.name, implementation: resources.implementation, boundary: "resources_servers" });
  components.push({ role: "agent_server", name: agent.name, implementation: agent.implementation, boundary: "responses_api_agents" });
  if (modelName) {
    const implementation = !model ? modelName : model.implementation === "dummy_model" ? "runtime-selected" : model.implementation;
    components.push({ role: "model_server", name: modelName, implementation, boundary: "responses_api_models" });
  }
  const driver = config.tree.rollout_collection_driver;
  return {
    composition: {
      resources_server: resources?.implementation ?? null,
      agent_server: agent.implementation,
      model_server: modelName ?? null,
      datasets: datasets.length ? datasets : null,
      rollout_driver: typeof driver === "string" ? driver : null,
      grading_mode: grading === undefined || grading === null ? null : String(grading),
    },
    components,
    resources,
  };
}

/** The mirrored fields whose manifest value differs from the config's. */
export function mirrorDifferences(manifest: Record<string, unknown>, composition: Composition): Partial<Composition> {
  const out: Partial<Composition> = {};
  for (const field of MIRRORED) {
    const mine = manifest[field] ?? null;
    if (JSON.stringify(canonical(mine)) !== JSON.stringify(canonical(composition[field]))) (out as Record<string, unknown>)[field] = composition[field];
  }
  return out;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isMapping(value)) return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical(value[k])]));
  return value;
}

/** The integration profile the composition shows, with the evidence (NeMo Gym's rule, for our agents). */
export function inferProfile(composition: Composition): [string, string] {
  if (composition.rollout_driver) return ["external-rollout-driver", "rollout_collection_driver is configured"];
  if (composition.agent_server === "simple_agent") return ["custom-gym-verifier", "selected agent implementation is simple_agent"];
  return ["unknown", `selected agent '${composition.agent_server}' is not simple_agent and declares no inspectable responses() behaviour`];
}

/** What `gym list` and `gym search` show: table rows and JSON payloads per component type, and the inspect view. */
import { GymError } from "../errors.ts";
import { discoverCatalog, entryDetails, type CatalogEntry, type CatalogKind } from "./catalog.ts";
import { discoverAgents, discoverModels, discoverResourcesServers } from "./components.ts";
import type { RootView } from "./_source.ts";
import { didYouMean, fuzzyMatches } from "./fuzzy.ts";
import { agentDatasets, resolveTolerant } from "./metadata.ts";

/** The five listing types, as `gym list` spells them. */
export const LIST_TYPES = ["benchmarks", "environments", "agents", "models", "resources-servers"] as const;
export type ListType = (typeof LIST_TYPES)[number];

/** A listing ready to print: table parts and the `--json` array. */
export interface Listing {
  title: string;
  columns: string[];
  rows: string[][];
  json: Record<string, unknown>[];
  /** Printed (yellow) instead of an empty table. */
  empty: string;
}

export interface ListOptions {
  query?: string;
  /** Catalog filters (exact matches): kind, domain, modality, licensing, status, lifecycle. */
  filters?: Partial<Record<"kind" | "domain" | "modality" | "licensing" | "status" | "lifecycle", string>>;
  warn?: (line: string) => void;
  /** The catalog title's counts cover every entry; without a title (JSON, not a TTY) `list benchmarks` reads only benchmarks. */
  withTitle?: boolean;
}

/** Builds the listing of one type (filtered by a fuzzy query for `search`). */
export async function listComponents(type: ListType, views: RootView[], options: ListOptions = {}): Promise<Listing> {
  const q = options.query;
  const empty = (noun: string) => (q ? `No ${noun} match '${q}'.` : `No ${noun} found.`);
  if (type === "agents") {
    const agents = (await discoverAgents(views)).filter((a) => !q || fuzzyMatches(q, a.name, a.description, ...a.variants));
    return {
      title: q ? `Agents matching '${q}'` : "NeMo Gym agents",
      columns: ["agent", "composition", "variants", "description"],
      rows: agents.map((a) => [a.name, a.selfContained ? "self-contained (B)" : "composable (A)", a.variants.join(", ") || "—", a.description ?? ""]),
      json: agents.map((a) => ({ name: a.name, pattern: a.selfContained ? "B (self-contained)" : "A (composable)", self_contained: a.selfContained, variants: a.variants, description: a.description ?? null })),
      empty: empty("agents"),
    };
  }
  if (type === "models") {
    const models = (await discoverModels(views)).filter((m) => !q || fuzzyMatches(q, m.name, m.modelGroup));
    return {
      title: q ? `Models matching '${q}'` : "NeMo Gym models",
      columns: ["Model", "Model group"],
      rows: models.map((m) => [m.name, m.modelGroup]),
      json: models.map((m) => ({ name: m.name, model: m.name, model_group: m.modelGroup })),
      empty: empty("models"),
    };
  }
  if (type === "resources-servers") {
    const servers = (await discoverResourcesServers(views)).filter((s) => !q || fuzzyMatches(q, s.name, s.domain, s.description));
    return {
      title: q ? `Resources servers matching '${q}' (${servers.length})` : `Available resources servers in NeMo Gym (${servers.length})`,
      columns: ["Name", "Domain", "Description"],
      rows: servers.map((s) => [s.name, s.domain ?? "", s.description ?? ""]),
      json: servers.map((s) => ({ name: s.name, domain: s.domain ?? null, description: s.description ?? null })),
      empty: empty("resources servers"),
    };
  }
  const discovered = await discoverCatalog(views, options.warn, type === "benchmarks" && options.withTitle === false ? "benchmark" : undefined);
  let entries = discovered.filter((e) => !q || fuzzyMatches(q, e.name, e.domain, e.description));
  const filters = { ...options.filters, ...(type === "benchmarks" ? { kind: "benchmark" } : {}) };
  for (const [field, expected] of Object.entries(filters)) {
    if (expected === undefined) continue;
    const missing = entries.filter((e) => e[field as keyof CatalogEntry] === undefined).length;
    if (missing > 0) options.warn?.(`Warning: ${missing} catalog ${missing === 1 ? "entry has" : "entries have"} no ${field} metadata and could not be matched.`);
    entries = entries.filter((e) => e[field as keyof CatalogEntry] === expected);
  }
  const coverage = discovered.filter((e) => e.manifestPath !== null).length;
  const counts = `(${entries.length}; manifests ${coverage}/${discovered.length})`;
  return {
    title: q ? `Catalog entries matching '${q}' ${counts}` : `Available environments and benchmarks ${counts}`,
    columns: ["Name", "Kind", "Status", "Lifecycle", "Domain", "Description"],
    rows: entries.map((e) => [e.name, e.kind, e.status, e.lifecycle ?? "", e.domain ?? "", e.description ?? ""]),
    json: entries.map(catalogPayload),
    // NeMo Gym says "environments" here for the benchmark view too; kept on purpose.
    empty: empty("environments"),
  };
}

/** The `--json` object of a catalog entry: NeMo Gym 0.5's fields plus 0.7's path, config_path, manifest_path. */
export function catalogPayload(e: CatalogEntry): Record<string, unknown> {
  return {
    name: e.name,
    kind: e.kind,
    status: e.status,
    domain: e.domain ?? null,
    description: e.description ?? null,
    version: e.version ?? null,
    integration_profile: e.integration_profile ?? null,
    modality: e.modality ?? null,
    licensing: e.licensing ?? null,
    lifecycle: e.lifecycle ?? null,
    path: e.path,
    config_path: e.configPath,
    manifest_path: e.manifestPath,
  };
}

/** The inspect view's content: `{name, type, domain, description, details, usage_example}`. */
export interface Inspection {
  name: string;
  type: string;
  domain: string | null;
  description: string | null;
  details: Record<string, string>;
  usage_example: string | null;
}

/** Inspects one component; unknown names (and names of the other catalog kind) are errors with exit 1. */
export async function inspectComponent(type: ListType, name: string, views: RootView[], kind?: CatalogKind): Promise<Inspection> {
  if (type === "agents") {
    const agents = await discoverAgents(views);
    const a = agents.find((x) => x.name === name) ?? unknown("agent", name, agents.map((x) => x.name));
    return { name, type: "agent", domain: null, description: a.description ?? null, details: { path: a.path, composition: a.selfContained ? "self-contained (B)" : "composable (A)", ...(a.variants.length ? { variants: a.variants.join(", ") } : {}) }, usage_example: null };
  }
  if (type === "models") {
    const models = await discoverModels(views);
    const m = models.find((x) => x.name === name) ?? unknown("model", name, models.map((x) => x.name));
    return { name, type: "model", domain: null, description: null, details: { config: m.configPath }, usage_example: `gym env start --resources-server example_single_tool_call --model-type ${name}` };
  }
  if (type === "resources-servers") {
    const servers = await discoverResourcesServers(views);
    const s = servers.find((x) => x.name === name) ?? unknown("resources server", name, servers.map((x) => x.name));
    const description = s.value ? (s.description ? `${s.description}\nValue: ${s.value}` : `Value: ${s.value}`) : (s.description ?? null);
    return { name, type: "resources server", domain: s.domain ?? null, description, details: { config: s.configPath }, usage_example: `gym env start --resources-server ${name} --model-type vllm_model` };
  }
  const wanted: CatalogKind | undefined = type === "benchmarks" ? "benchmark" : kind;
  return inspectCatalogEntry(name, await discoverCatalog(views), wanted);
}

async function inspectCatalogEntry(name: string, entries: CatalogEntry[], kind: CatalogKind | undefined): Promise<Inspection> {
  const pool = entries.filter((e) => !kind || e.kind === kind);
  const matches = pool.filter((e) => e.name === name);
  if (matches.length === 0) {
    const other = entries.find((e) => e.name === name);
    if (other && kind) {
      throw new GymError("E_USAGE", `'${name}' is ${/^[aeiou]/.test(other.kind) ? "an" : "a"} ${other.kind}, not a ${kind}.`, { hint: `Try \`gym list ${other.kind}s ${name}\`.`, exitCode: 1 });
    }
    unknown(kind ?? "environment", name, pool.map((e) => e.name));
  }
  if (matches.length > 1) {
    throw new GymError("E_USAGE", `'${name}' is ambiguous: it names both an environment and a benchmark.`, { hint: `Add --kind environment or --kind benchmark.`, exitCode: 1 });
  }
  const e = matches[0]!;
  const parsed = await entryDetails(e);
  const details: Record<string, string> = { config: e.configPath, status: e.status };
  if (e.manifestPath) details.manifest = e.manifestPath;
  for (const [label, value] of [["version", e.version], ["profile", e.integration_profile], ["modality", e.modality], ["licensing", e.licensing], ["lifecycle", e.lifecycle]] as const) {
    if (value) details[label] = value;
  }
  if (parsed.resourcesServers.length) details["resources servers"] = parsed.resourcesServers.join(", ");
  if (parsed.agent) details.agent = parsed.agent;
  if (parsed.datasets.length) details.datasets = parsed.datasets.join(", ");
  if (e.kind === "benchmark") Object.assign(details, await benchmarkDetails(e));
  let description = e.description ?? null;
  if (parsed.value) description = description ? `${description}\nValue: ${parsed.value}` : `Value: ${parsed.value}`;
  const usage = e.selector ? `gym env start --resources-server ${e.selector} --model-type vllm_model` : `gym env start --${e.kind} ${e.name} --model-type vllm_model`;
  return { name, type: e.kind, domain: e.domain ?? null, description, details, usage_example: usage };
}

/** The benchmark's agent instance, repeats, dataset and prepare script (0.7 shows which harness a benchmark composes with). */
async function benchmarkDetails(e: CatalogEntry): Promise<Record<string, string>> {
  const { tree } = await resolveTolerant(e.view, e.configRel);
  const found = agentDatasets(tree).find((d) => d.dataset.type === "benchmark");
  if (!found) return {};
  const out: Record<string, string> = { "agent instance": found.instance, "num repeats": String(found.dataset.num_repeats ?? 1), dataset: String(found.dataset.name) };
  if (found.dataset.prepare_script) out["prepare script"] = String(found.dataset.prepare_script);
  if (found.dataset.prompt_config) out["prompt config"] = String(found.dataset.prompt_config);
  return out;
}

function unknown(noun: string, name: string, candidates: string[]): never {
  throw new GymError("E_USAGE", `Unknown ${noun} '${name}'.${didYouMean(name, candidates)}`, { hint: `Run \`gym list ${noun === "resources server" ? "resources-servers" : `${noun}s`}\` to see every name.`, exitCode: 1 });
}

/** The inspect view as text: header, description, Details, Usage example; empty sections left out. */
export function inspectionText(i: Inspection, bold: (s: string) => string = (s) => s): string {
  const sections = [`The ${bold(i.name)} ${i.type}${i.domain ? ` (domain: ${i.domain})` : ""}`];
  if (i.description) sections.push(i.description);
  const details = Object.entries(i.details);
  if (details.length) sections.push(`${bold("Details:")}\n${details.map(([k, v]) => `${k}: ${v}`).join("\n")}`);
  if (i.usage_example) sections.push(`${bold("Usage example:")}\n${i.usage_example}`);
  return sections.join("\n\n") + "\n";
}

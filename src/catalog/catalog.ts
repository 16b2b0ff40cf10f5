/** The unified catalog behind `list environments`, `list benchmarks` and `search`: manifests, benchmark configs, environment configs, resource workloads. */
import { parseYaml } from "../config/yaml.ts";
import type { ConfigMap } from "../config/_tree.ts";
import type { RootView } from "./_source.ts";
import { checkManifest, type Manifest } from "./manifest.ts";
import { agentDatasets, mentionsBenchmark, readMetadata, resolveTolerant, serverBlocks } from "./metadata.ts";

export type CatalogKind = "environment" | "benchmark";

/** One catalog entry, with where it came from. */
export interface CatalogEntry {
  name: string;
  kind: CatalogKind;
  status: "experimental" | "no-manifest";
  domain?: string;
  description?: string;
  version?: string;
  integration_profile?: string;
  modality?: string;
  licensing?: string;
  lifecycle?: string;
  /** The entry's directory (absolute, or `<built-in>/…`); not unique. */
  path: string;
  /** The config to load for this entry. */
  configPath: string;
  manifestPath: string | null;
  /** For resource workloads: the `--resources-server` value. */
  selector?: string;
  /** The root and layout path of the config (to read or resolve it again). */
  view: RootView;
  configRel: string;
}

/** Builds the catalog root by root; the first root to claim (kind, name) keeps it; sorted by case-folded name. */
export async function discoverCatalog(views: RootView[], warn: (line: string) => void = () => {}, only?: CatalogKind): Promise<CatalogEntry[]> {
  const claimed = new Map<string, CatalogEntry>();
  const claim = (entry: CatalogEntry) => {
    const key = `${entry.kind}\u0000${entry.name}`;
    if (!claimed.has(key)) claimed.set(key, entry);
  };
  for (const view of views) {
    const fromManifests = await manifestEntries(view);
    fromManifests.forEach(claim);
    const manifestConfigs = new Set(fromManifests.map((e) => e.configRel));
    for (const entry of await benchmarkEntries(view, manifestConfigs, warn)) claim(entry);
    // `only`: a listing that shows one kind and no catalog-wide counts skips reading the other kind's configs.
    if (only !== "benchmark") for (const entry of await environmentEntries(view, manifestConfigs)) claim(entry);
    for (const entry of await workloadEntries(view, only)) {
      const last = entry.selector!.split("/").pop()!;
      if (!claimed.has(`${entry.kind}\u0000${last}`)) claim(entry);
    }
  }
  return [...claimed.values()].sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0));
}

/** `environments/**​/manifest.yaml` and `benchmarks/**​/manifest.yaml` that validate, match their tree and path, and sit beside a config.yaml. */
async function manifestEntries(view: RootView): Promise<CatalogEntry[]> {
  const out: CatalogEntry[] = [];
  for (const [tree, kind] of [["environments", "environment"], ["benchmarks", "benchmark"]] as const) {
    for (const file of await view.files(tree, "manifest.yaml")) {
      if (!file.endsWith("/manifest.yaml")) continue;
      const dir = file.slice(0, -"/manifest.yaml".length);
      const text = await view.read(`${tree}/${file}`);
      let manifest: Manifest | undefined;
      try {
        manifest = checkManifest(parseYaml(text ?? "", `${tree}/${file}`)).manifest;
      } catch {
        manifest = undefined;
      }
      // Invalid manifests are skipped silently, as NeMo Gym does; `gym env validate` reports them.
      if (!manifest || manifest.kind !== kind || manifest.name !== dir || !(await view.exists(`${tree}/${dir}/config.yaml`))) continue;
      out.push({
        name: dir,
        kind,
        status: "experimental",
        domain: manifest.domain,
        description: manifest.description,
        version: manifest.version,
        integration_profile: manifest.integration_profile,
        modality: manifest.modality,
        licensing: manifest.licensing ?? "unknown",
        lifecycle: manifest.lifecycle,
        path: view.shown(`${tree}/${dir}`),
        configPath: view.shown(`${tree}/${dir}/config.yaml`),
        manifestPath: view.shown(`${tree}/${file}`),
        view,
        configRel: `${tree}/${dir}/config.yaml`,
      });
    }
  }
  return out;
}

/** The benchmark token of a file under benchmarks/: the path without `.yaml`, and `X/config.yaml` → `X`. */
export function benchmarkToken(file: string): string {
  const rel = file.replace(/\.yaml$/, "");
  return rel.endsWith("/config") ? rel.slice(0, -"/config".length) : rel;
}

async function benchmarkEntries(view: RootView, manifestConfigs: Set<string>, warn: (line: string) => void): Promise<CatalogEntry[]> {
  const out: CatalogEntry[] = [];
  for (const file of await view.files("benchmarks")) {
    const rel = `benchmarks/${file}`;
    if (file.endsWith("manifest.yaml") || manifestConfigs.has(rel)) continue;
    if (!mentionsBenchmark(await view.yaml(rel))) continue;
    const { tree, error } = await resolveTolerant(view, rel);
    if (!tree) {
      warn(`Warning: skipping benchmark config ${view.shown(rel)}: ${error}`);
      continue;
    }
    if (agentDatasets(tree).filter((d) => d.dataset.type === "benchmark").length !== 1) continue;
    const { domain, description } = await readMetadata(view, rel, tree);
    const dir = rel.slice(0, rel.lastIndexOf("/"));
    out.push({ name: benchmarkToken(file), kind: "benchmark", status: "no-manifest", domain, description, path: view.shown(dir), configPath: view.shown(rel), manifestPath: null, view, configRel: rel });
  }
  return out;
}

async function environmentEntries(view: RootView, manifestConfigs: Set<string>): Promise<CatalogEntry[]> {
  const out: CatalogEntry[] = [];
  for (const dir of await view.dirs("environments")) {
    const rel = `environments/${dir}/config.yaml`;
    if (manifestConfigs.has(rel) || !(await view.exists(rel))) continue;
    const { domain, description } = await readMetadata(view, rel);
    out.push({ name: dir, kind: "environment", status: "no-manifest", domain, description, path: view.shown(`environments/${dir}`), configPath: view.shown(rel), manifestPath: null, view, configRel: rel });
  }
  return out;
}

/** Resources-server configs that also define an agent with datasets: runnable as they are. */
async function workloadEntries(view: RootView, only?: CatalogKind): Promise<CatalogEntry[]> {
  const out: CatalogEntry[] = [];
  for (const dir of await view.dirs("resources_servers")) {
    for (const file of await view.files(`resources_servers/${dir}/configs`)) {
      if (file.includes("/")) continue;
      const rel = `resources_servers/${dir}/configs/${file}`;
      const raw = await view.yaml(rel);
      const blocks = serverBlocks(raw);
      const datasets = agentDatasets(raw);
      if (!blocks.some((b) => b.group === "resources_servers") || datasets.length === 0) continue;
      const stem = file.replace(/\.yaml$/, "");
      const selector = stem === dir ? dir : `${dir}/${stem}`;
      const kind: CatalogKind = datasets.some((d) => d.dataset.type === "benchmark") ? "benchmark" : "environment";
      if (only && kind !== only) continue;
      const { domain, description } = await readMetadata(view, rel);
      out.push({
        name: `resources_servers/${selector}`,
        kind,
        status: "no-manifest",
        domain,
        description,
        path: view.shown(`resources_servers/${dir}`),
        configPath: view.shown(rel),
        manifestPath: null,
        selector,
        view,
        configRel: rel,
      });
    }
  }
  return out;
}

/** The raw file's server implementations, agent and dataset names, for the inspect view. */
export async function entryDetails(entry: CatalogEntry): Promise<{ resourcesServers: string[]; agent?: string; datasets: string[]; value?: string; raw: ConfigMap | null }> {
  const raw = await entry.view.yaml(entry.configRel);
  const blocks = serverBlocks(raw);
  const resourcesServers = [...new Set(blocks.filter((b) => b.group === "resources_servers").map((b) => b.implementation))];
  const agent = blocks.find((b) => b.group === "responses_api_agents")?.implementation;
  const datasets = agentDatasets(raw).map((d) => String(d.dataset.name));
  const value = blocks.map((b) => b.block.value).find((v) => typeof v === "string") as string | undefined;
  return { resourcesServers, agent, datasets, value, raw };
}

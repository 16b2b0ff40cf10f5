/** `gym env validate NAME`: a manifest-backed workload checked offline — manifest, mirrors (`--sync`), datasets, server blocks. */
import { isMap, parseDocument } from "yaml";
import { GymError } from "../../errors.ts";
import { noModelSeed, resolveConfig, type ResolvedConfig } from "../../config/index.ts";
import type { Manifest } from "../manifest.ts";
import { writeFileAtomic } from "../../runtime/files.ts";
import type { RootView } from "../_source.ts";
import { checkServerBlocks } from "../server-check.ts";
import { inferProfile, mirrorDifferences, resolveComposition, type ResolvedComponent } from "./composition.ts";
import { checkWorkloadDataset, type DatasetReport } from "./datasets.ts";
import { checkedManifest, findWorkload, type Workload, type WorkloadKind } from "./find.ts";

export interface WorkloadReport {
  name: string;
  version: string;
  kind: string;
  declared_profile: string;
  inferred_profile: string;
  profile_evidence: string;
  manifest_path: string;
  config_path: string;
  components: ResolvedComponent[];
  datasets: DatasetReport[];
  rollout_driver: string | null;
  grading_mode: string | null;
  synchronized_fields: string[];
  warnings: string[];
}

export interface ValidateWorkloadOptions {
  kind?: WorkloadKind;
  /** Update the manifest's mirrored fields from the config (only after every other check passes). */
  sync?: boolean;
  searchDirs?: string[];
  cwd?: string;
}

/** Validates workload NAME; throws a GymError naming the first problem (every manifest problem at once). */
export async function validateWorkload(name: string, views: RootView[], options: ValidateWorkloadOptions = {}): Promise<{ report: WorkloadReport; workload: Workload; config: ResolvedConfig; manifest: Manifest }> {
  const cwd = options.cwd ?? process.cwd();
  const workload = await findWorkload(name, views, options.kind);
  const manifest = checkedManifest(workload);
  const configShown = workload.view.shown(workload.configRel);
  if (!(await workload.view.exists(workload.configRel))) throw new GymError("E_INPUT_NOT_FOUND", `Gym config was not found: ${configShown}`, { hint: "A workload's config.yaml sits beside its manifest.yaml." });

  const config = await resolveConfig({ configPaths: [workload.view.configPath(workload.configRel)], searchDirs: options.searchDirs, cwd, mode: "offline", placeholders: true, seed: noModelSeed(false) });
  const { composition, components } = resolveComposition(config);
  const differences = mirrorDifferences(manifest, composition);
  const stale = Object.keys(differences);
  if (stale.length && !options.sync) {
    const lines = stale.map((f) => `  - ${f}: manifest=${JSON.stringify(manifest[f] ?? null)}, config=${JSON.stringify((differences as Record<string, unknown>)[f])}`);
    throw new GymError("E_CONFIG", `Manifest composition is stale (${workload.view.shown(workload.manifestRel)}); the config stays authoritative for mirrored fields:\n${lines.join("\n")}`, {
      hint: `Run \`gym env validate --sync ${name}\` to update only these fields.`,
    });
  }
  const [inferred, evidence] = inferProfile(composition);
  if (manifest.kind === "benchmark") {
    const mismatched = (manifest.datasets as Record<string, unknown>[]).filter((d) => d.type === "benchmark" && d.prompt_config !== undefined && d.prompt_config !== manifest.standard_prompt_config);
    if (mismatched.length) throw new GymError("E_CONFIG", `Benchmark dataset prompt_config must match standard_prompt_config for: ${mismatched.map((d) => d.name).join(", ")}`);
  }
  const datasets: DatasetReport[] = [];
  for (const dataset of manifest.datasets as Record<string, unknown>[]) datasets.push(await checkWorkloadDataset(dataset, config.roots, cwd, manifest.standard_prompt_config as string | undefined));
  await checkServerBlocks(config);
  if (stale.length) await syncManifest(workload, differences);

  const warnings = [...config.warnings];
  if (inferred === "unknown") warnings.push(`Could not infer integration_profile (${evidence}); declared profile is '${manifest.integration_profile}'.`);
  else if (inferred !== manifest.integration_profile) warnings.push(`Declared integration_profile '${manifest.integration_profile}' does not match inferred profile '${inferred}' (${evidence}).`);
  return {
    workload,
    config,
    manifest,
    report: {
      name: manifest.name, version: manifest.version, kind: manifest.kind,
      declared_profile: manifest.integration_profile, inferred_profile: inferred, profile_evidence: evidence,
      manifest_path: workload.view.shown(workload.manifestRel), config_path: configShown,
      components, datasets, rollout_driver: composition.rollout_driver, grading_mode: composition.grading_mode,
      synchronized_fields: stale, warnings,
    },
  };
}

/** Writes only the mirrored fields back into manifest.yaml (comments and key order kept), atomically. */
async function syncManifest(workload: Workload, differences: Record<string, unknown>): Promise<void> {
  if (workload.view.root.kind !== "dir") throw new GymError("E_USAGE", `Cannot --sync the built-in workload '${workload.name}': it is part of the binary.`, { hint: "Copy it into a folder of your own (--search-dir) to edit its manifest." });
  const doc = parseDocument(workload.text);
  if (!isMap(doc.contents)) throw new GymError("E_CONFIG", "manifest.yaml must be a mapping");
  for (const [field, value] of Object.entries(differences)) {
    if (value === null) doc.delete(field);
    else doc.set(field, doc.createNode(value));
  }
  writeFileAtomic(workload.view.shown(workload.manifestRel), doc.toString({ flowCollectionPadding: false }));
}

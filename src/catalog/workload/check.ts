/** `gym env test NAME` and `gym env publish NAME`: the verifier fixture of a validated workload, and the publication check. */
import { GymError } from "../../errors.ts";
import type { RootView } from "../_source.ts";
import { discoverCatalog } from "../catalog.ts";
import type { Manifest } from "../manifest.ts";
import { exerciseFixture, type FixtureResult } from "./fixture.ts";
import type { WorkloadKind } from "./find.ts";
import { validateWorkload, type ValidateWorkloadOptions, type WorkloadReport } from "./validate.ts";

export interface VerifierReport {
  name: string;
  kind: string;
  resources_server: string;
  manifest_path: string;
  fixture_path: string;
  cases: FixtureResult[];
}

/** Validates workload NAME, then runs its resources server's verifier fixture against the manifest's reward contract. */
export async function testWorkload(name: string, views: RootView[], options: ValidateWorkloadOptions & { updateExpected?: boolean } = {}): Promise<{ validation: WorkloadReport; verifier: VerifierReport; manifest: Manifest }> {
  const { report, config, manifest } = await validateWorkload(name, views, { ...options, sync: false });
  const resources = config.serverInstances.find((i) => i.name === report.components.find((c) => c.role === "resources_server")?.name);
  if (!resources) throw new GymError("E_CONFIG", `Workload '${name}' has no resources server to test.`, { hint: "Its dataset-bearing agent must name a resources_server instance." });
  const reward = manifest.reward as { range: [number, number]; higher_is_better: boolean };
  const { file, results } = await exerciseFixture(
    { name: resources.name, implementation: resources.implementation, block: resources.config, roots: config.roots, globalConfig: config.resolve() as Record<string, unknown> },
    { rewardRange: reward.range, higherIsBetter: reward.higher_is_better, determinism: String(manifest.determinism ?? "unknown") },
    options.updateExpected,
  );
  return {
    manifest,
    validation: report,
    verifier: { name: report.name, kind: report.kind, resources_server: resources.implementation, manifest_path: report.manifest_path, fixture_path: file, cases: results },
  };
}

export interface PublicationReport {
  name: string;
  version: string;
  kind: string;
  status: string;
  manifest_path: string;
  verifier_cases: number;
}

const placeholder = (value: unknown) => typeof value === "string" && value.trim().toLowerCase().startsWith("todo");

/** The local publication check: validation, the fixture, no scaffold placeholders, and the catalog finds this exact manifest. */
export async function publishWorkload(name: string, views: RootView[], options: ValidateWorkloadOptions = {}): Promise<PublicationReport> {
  const { validation, verifier, manifest } = await testWorkload(name, views, options);
  const left: string[] = [];
  if (placeholder(manifest.description)) left.push("description");
  if ((manifest.authors as string[]).some(placeholder)) left.push("authors");
  if ((manifest.licensing ?? "unknown") === "unknown") left.push("licensing");
  if (manifest.kind === "benchmark") for (const key of ["canonical_split", "standard_prompt_config"]) if (placeholder(manifest[key])) left.push(key);
  if (left.length) {
    throw new GymError("E_CHECK_FAILED", `Replace scaffold placeholders before publishing: ${left.join(", ")} (${validation.manifest_path}).`, {
      hint: "Write a real description and authors, and set licensing to an SPDX expression (or internal / proprietary).",
    });
  }
  const entries = await discoverCatalog(views, () => {}, validation.kind as WorkloadKind);
  const matches = entries.filter((e) => e.name === name && e.kind === validation.kind && e.manifestPath === validation.manifest_path);
  if (matches.length !== 1) throw new GymError("E_CHECK_FAILED", `The catalog did not resolve ${validation.kind} '${name}' to its exact manifest (${validation.manifest_path}).`, { hint: "Another root may shadow it: check `gym list environments --json` for the path it shows." });
  if (matches[0]!.status !== "experimental") throw new GymError("E_CHECK_FAILED", `Newly published workloads must enter as experimental, observed '${matches[0]!.status}'.`);
  return { name: validation.name, version: validation.version, kind: validation.kind, status: matches[0]!.status, manifest_path: validation.manifest_path, verifier_cases: verifier.cases.length };
}

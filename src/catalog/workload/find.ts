/** Finding a manifest-backed workload (`environments/NAME/manifest.yaml` or `benchmarks/NAME/manifest.yaml`) by name. */
import { GymError } from "../../errors.ts";
import { closeMatches } from "../../text/difflib.ts";
import type { RootView } from "../_source.ts";
import { checkManifest, type Manifest } from "../manifest.ts";
import { parseYaml } from "../../config/yaml.ts";

export type WorkloadKind = "environment" | "benchmark";

/** A workload's files in the root that holds it (the first root that has one wins, as for every component). */
export interface Workload {
  name: string;
  kind: WorkloadKind;
  view: RootView;
  /** Layout paths inside the root. */
  manifestRel: string;
  configRel: string;
  /** The manifest as written (before checks) and its text. */
  text: string;
  raw: unknown;
}

const TREES: [string, WorkloadKind][] = [["environments", "environment"], ["benchmarks", "benchmark"]];

/** The workload NAME (`--kind` narrows it), or a GymError that names what exists instead. */
export async function findWorkload(name: string, views: RootView[], kind?: WorkloadKind): Promise<Workload> {
  const trees = TREES.filter(([, k]) => !kind || k === kind);
  for (const view of views) {
    for (const [tree, treeKind] of trees) {
      const manifestRel = `${tree}/${name}/manifest.yaml`;
      const text = await view.read(manifestRel);
      if (text === undefined) continue;
      return { name, kind: treeKind, view, manifestRel, configRel: `${tree}/${name}/config.yaml`, text, raw: parseYaml(text, view.shown(manifestRel)) };
    }
  }
  const known: string[] = [];
  for (const view of views) for (const [tree] of trees) for (const file of await view.files(tree, "manifest.yaml")) known.push(file.replace(/\/manifest\.yaml$/, ""));
  const close = closeMatches(name, known, 3, 0.6);
  const where = trees.map(([tree]) => `${tree}/${name}/manifest.yaml`).join(" or ");
  throw new GymError("E_USAGE", `No manifest-backed workload named '${name}': no root has ${where}.`, {
    hint: close.length
      ? `Did you mean ${close.map((n) => `'${n}'`).join(", ")}?`
      : `Scaffold one with \`gym env init --environment ${name}\` (or --benchmark), or pass --search-dir to the folder that holds it. A plain config is checked with --config.`,
    exitCode: 1,
  });
}

/** The manifest after its strict checks, or a GymError listing every problem with the file. */
export function checkedManifest(workload: Workload): Manifest {
  const { manifest, problems } = checkManifest(workload.raw);
  const file = workload.view.shown(workload.manifestRel);
  if (!manifest) {
    throw new GymError("E_CONFIG", `${file} is not a valid manifest:\n${problems.map((p) => `  - ${p}`).join("\n")}`, {
      hint: "Fix the listed keys; `gym env init --environment NAME` writes a valid manifest to start from.",
    });
  }
  if (manifest.name !== workload.name) {
    throw new GymError("E_CONFIG", `Manifest identity name '${manifest.name}' does not match its catalog path '${workload.name}' (${file}).`, { hint: `Set name: ${workload.name}, or move the folder.` });
  }
  if (manifest.kind !== workload.kind) {
    throw new GymError("E_CONFIG", `Manifest kind '${manifest.kind}' does not match its location under '${workload.kind}s/' (${file}).`, { hint: `Set kind: ${workload.kind}, or move the folder.` });
  }
  return manifest;
}

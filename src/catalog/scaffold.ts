/** `gym env init`: write a resources server or a manifest-backed environment/benchmark into the cwd, never overwriting a different file. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { builtinDir } from "../config/builtin-files.ts";
import { GymError } from "../errors.ts";
import { isMapping, parseYamlMapping } from "../config/index.ts";
import { resourcesServerFiles, workloadFiles, type WorkloadOptions } from "./scaffold-templates.ts";
import { PROFILES } from "./manifest.ts";

const NAME = /^[a-z0-9][a-z0-9._-]*$/;
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** The import specifier of gym's server SDK as seen from `folder` (a relative path in a source checkout). */
export function sdkSpecifier(folder: string): string {
  if (!builtinDir) return "gym/server-sdk";
  const rel = relative(folder, join(builtinDir, "..", "catalog", "server-sdk.ts")).replace(/\\/g, "/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

export function checkScaffoldName(name: string, what: string, identifier: boolean): void {
  if (!NAME.test(name) || (identifier && !IDENTIFIER.test(name))) {
    throw new GymError("E_BAD_FLAG_VALUE", `${what} name '${name}' is not valid.`, {
      hint: identifier ? "Use lowercase letters, digits and underscores, starting with a letter (e.g. my_verifier)." : "Use lowercase letters, digits, '.', '_' and '-', starting with a letter or digit.",
    });
  }
}

/** Writes `files` under `cwd`: identical existing files are left alone; any different one aborts before writing anything. */
export function writeScaffold(cwd: string, files: Record<string, string>): { written: string[]; unchanged: string[] } {
  const conflicts = Object.entries(files).filter(([rel, text]) => existsSync(join(cwd, rel)) && readFileSync(join(cwd, rel), "utf8") !== text);
  if (conflicts.length > 0) {
    throw new GymError("E_OUTPUT_EXISTS", `These files already exist with different content:\n- ${conflicts.map(([rel]) => join(cwd, rel)).join("\n- ")}`, {
      hint: "Move them away or pick another name; nothing was written.",
    });
  }
  const written: string[] = [];
  const unchanged: string[] = [];
  for (const [rel, text] of Object.entries(files)) {
    const full = join(cwd, rel);
    if (existsSync(full)) {
      unchanged.push(full);
      continue;
    }
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    written.push(full);
  }
  return { written, unchanged };
}

/** `--resources-server NAME`: a folder that already exists is left alone (a notice, exit 0), as NeMo Gym does. */
export function scaffoldResourcesServer(cwd: string, name: string): { written: string[]; existed?: string } {
  checkScaffoldName(name, "Resources server", true);
  const folder = join(cwd, "resources_servers", name);
  if (existsSync(folder)) return { written: [], existed: folder };
  return { written: writeScaffold(cwd, resourcesServerFiles(name, sdkSpecifier(folder))).written };
}

/** `--environment NAME` / `--benchmark NAME`, with a new verifier unless `reuseVerifier` is given. */
export function scaffoldWorkload(cwd: string, o: Omit<WorkloadOptions, "verifier" | "verifierInstance" | "reward"> & { reuseVerifier?: string; reward?: WorkloadOptions["reward"] }) {
  if (o.reuseVerifier && !o.inherit) throw new Error("scaffoldWorkload: a reused verifier needs its instances (reusedInstances)");
  checkScaffoldName(o.name, o.kind === "environment" ? "Environment" : "Benchmark", !o.reuseVerifier);
  if (!(PROFILES as readonly string[]).includes(o.profile)) {
    throw new GymError("E_BAD_FLAG_VALUE", `--profile must be one of ${PROFILES.join(", ")}, got '${o.profile}'.`);
  }
  const verifier = o.reuseVerifier ?? o.name;
  const files = workloadFiles({
    ...o,
    verifier,
    verifierInstance: o.reuseVerifier ? o.reuseVerifier : `${o.name}_resources_server`,
    reward: o.reward ?? { range: [0, 1], higher_is_better: true },
  });
  if (!o.reuseVerifier) Object.assign(files, resourcesServerFiles(o.name, sdkSpecifier(join(cwd, "resources_servers", o.name)), true));
  return writeScaffold(cwd, files);
}

/**
 * The instances of a reused verifier's config (`configText`, the file `--reuse-verifier NAME` selects): the
 * resources server of that type, and the agent that uses it and holds datasets, if any.
 */
export function reusedInstances(verifier: string, configText: string, display: string): { resourcesServer: string; agent?: string } {
  const tree = parseYamlMapping(configText, display);
  const block = (key: string, type: string) => {
    const v = tree[key];
    const typed = isMapping(v) ? v[type] : undefined;
    return isMapping(typed) ? Object.values(typed).find(isMapping) : undefined;
  };
  const resourcesServer = Object.keys(tree).find((k) => {
    const typed = isMapping(tree[k]) ? (tree[k] as Record<string, unknown>).resources_servers : undefined;
    return isMapping(typed) && Object.hasOwn(typed, verifier);
  });
  if (!resourcesServer) {
    throw new GymError("E_CONFIG", `--reuse-verifier ${verifier}: ${display} defines no resources_servers: ${verifier} instance to reuse.`, { hint: "Check the server's config (resources_servers/NAME/configs/NAME.yaml), or leave out --reuse-verifier." });
  }
  const agent = Object.keys(tree).find((k) => {
    const a = block(k, "responses_api_agents");
    const ref = a && isMapping(a.resources_server) ? a.resources_server.name : undefined;
    return ref === resourcesServer && Array.isArray(a!.datasets);
  });
  return { resourcesServer, agent };
}

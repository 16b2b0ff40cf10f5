/**
 * What a resources server runs on (`gym env packages`). A single binary has no per-server virtual environments:
 * a built-in runs on the libraries embedded in gym; a user's server on those plus its own package.json.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { componentRoots } from "../config/roots.ts";
import { GymError } from "../errors.ts";
import { builtinCatalogs } from "./builtins.ts";

export interface ServerPackage {
  name: string;
  /** The version in use (installed in the server's node_modules, else as declared). */
  version: string;
  /** `gym` (embedded in the binary) or the package.json that declares it. */
  source: string;
  latest?: string | null;
}

/** The packages of server NAME: its own package.json's dependencies (user servers), then gym's embedded ones. */
export async function serverPackages(name: string, searchDirs: string[], gymDependencies: Record<string, string>, cwd = process.cwd()): Promise<{ server: string; location: string; packages: ServerPackage[] }> {
  const dirs = componentRoots({ searchDirs, cwd }).flatMap((r) => (r.kind === "dir" ? [resolve(cwd, r.path)] : []));
  const folder = dirs.map((d) => join(d, "resources_servers", name)).find((f) => existsSync(join(f, "index.ts")));
  const embedded = Object.entries(gymDependencies).map(([dep, version]) => ({ name: dep, version, source: "gym" }));
  if (folder) {
    const own = ownDependencies(folder);
    return { server: name, location: folder, packages: [...own, ...embedded.filter((e) => !own.some((o) => o.name === e.name))] };
  }
  if ((await builtinCatalogs()).resources_servers?.[name]) return { server: name, location: "built-in", packages: embedded };
  throw new GymError("E_INPUT_NOT_FOUND", `Resources server '${name}' was not found: it is not built in and no root has resources_servers/${name}/index.ts.`, {
    hint: "Check the name with `gym list resources-servers`, or pass --search-dir to the folder that holds it.",
    exitCode: 1,
  });
}

function ownDependencies(folder: string): ServerPackage[] {
  const manifest = join(folder, "package.json");
  if (!existsSync(manifest)) return [];
  let declared: Record<string, string>;
  try {
    declared = (JSON.parse(readFileSync(manifest, "utf8")) as { dependencies?: Record<string, string> }).dependencies ?? {};
  } catch (error) {
    throw new GymError("E_INPUT_JSON", `${manifest} is not valid JSON: ${(error as Error).message}`, { hint: "Fix the file; `npm install` would refuse it too." });
  }
  return Object.entries(declared).map(([dep, range]) => {
    const installed = join(folder, "node_modules", dep, "package.json");
    const version = existsSync(installed) ? String((JSON.parse(readFileSync(installed, "utf8")) as { version?: string }).version ?? range) : range;
    return { name: dep, version, source: manifest };
  });
}

/** The registry's latest version of each package through the user's own `npm` (its registry settings apply); null when unknown. */
export async function latestVersions(names: string[]): Promise<{ latest: Record<string, string | null>; offline?: string }> {
  const latest: Record<string, string | null> = {};
  let offline: string | undefined;
  for (const name of names) {
    if (offline) {
      latest[name] = null;
      continue;
    }
    const answer = await new Promise<{ ok: boolean; text: string }>((done) =>
      execFile("npm", ["view", name, "version"], { timeout: 20_000 }, (error, stdout, stderr) => done({ ok: !error, text: error ? `${stderr || error.message}`.trim() : stdout.trim() })),
    );
    latest[name] = answer.ok ? answer.text : null;
    if (!answer.ok && /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENOENT|network|offline/i.test(answer.text)) offline = answer.text.split("\n")[0];
  }
  return { latest, ...(offline ? { offline } : {}) };
}

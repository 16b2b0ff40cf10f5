/**
 * Finding a coding-agent CLI at its pinned version: the npm package (`@openai/codex`, `opencode-linux-x64`,
 * `@anthropic-ai/claude-code`) installed from the registry — gym's own devDependencies, a folder named by
 * `$GYM_AGENT_CLI_DIR`, or the working directory's node_modules — and the native executable it ships. Nothing is
 * downloaded at run time: a missing or different version is an error that prints the one npm command that fixes it.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { GymError } from "../../../errors.ts";

export interface CliPackage {
  /** The npm package users install. */
  packageName: string;
  /** The version gym is tested with (package.json's devDependency); a config's `<cli>_version` key overrides it. */
  pinnedVersion: string;
  /** The native executable inside the installed packages, relative to node_modules (first one that exists wins). */
  executables: string[];
}

export interface FoundCli {
  /** Absolute path of the native executable (shown read-only inside the sandbox). */
  executable: string;
  version: string;
  /** The node_modules folder it came from. */
  root: string;
}

/** node_modules folders searched, in order. */
export function cliSearchRoots(cwd = process.cwd()): string[] {
  const roots: string[] = [];
  if (process.env.GYM_AGENT_CLI_DIR) roots.push(join(process.env.GYM_AGENT_CLI_DIR, "node_modules"));
  roots.push(join(cwd, "node_modules"));
  // gym's own checkout: dist/gym → ../node_modules; from source, src/… → the repository's node_modules.
  for (let dir = dirname(realpathSync(process.execPath)), i = 0; i < 3; dir = dirname(dir), i++) roots.push(join(dir, "node_modules"));
  for (let dir = import.meta.dirname ?? "", i = 0; dir && i < 6; dir = dirname(dir), i++) roots.push(join(dir, "node_modules"));
  return [...new Set(roots)];
}

const installedVersion = (root: string, name: string): string | null => {
  const manifest = join(root, name, "package.json");
  if (!existsSync(manifest)) return null;
  return String((JSON.parse(readFileSync(manifest, "utf8")) as { version?: string }).version ?? "");
};

/** The CLI at `version` (default: the pinned one), or a GymError naming the npm command that installs it. */
export function findCli(cli: CliPackage, version = cli.pinnedVersion, roots = cliSearchRoots()): FoundCli {
  const seen: string[] = [];
  for (const root of roots) {
    const found = installedVersion(root, cli.packageName);
    if (found === null) continue;
    seen.push(`${found} in ${root}`);
    if (found !== version) continue;
    const executable = cli.executables.map((rel) => join(root, rel)).find((path) => existsSync(path));
    if (executable) return { executable: realpathSync(executable), version: found, root };
    seen[seen.length - 1] += ` (without its native executable for ${process.platform}-${process.arch})`;
  }
  throw new GymError("E_CONFIG", `${cli.packageName}@${version} is not installed${seen.length ? ` (found ${seen.join("; ")})` : ""}`, {
    hint: `install it from the npm registry: npm install --prefix ~/.cache/gym/agent-clis ${cli.packageName}@${version} and set GYM_AGENT_CLI_DIR=~/.cache/gym/agent-clis (or run from a folder whose node_modules has it)`,
  });
}

/** The built-in component tree (NeMo Gym's repo layout): read from src/components/ in a source run, from the embedded copy in the binary. */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** The folder of the built-ins when running from source; undefined inside the compiled binary. */
export const builtinDir: string | undefined = (() => {
  const dir = import.meta.dirname && join(import.meta.dirname, "..", "components");
  return dir && existsSync(join(dir, "resources_servers")) ? dir : undefined;
})();

let embedded: Record<string, string> | undefined;
let embeddedYaml: Record<string, unknown> | undefined;

async function embeddedFiles(): Promise<Record<string, string>> {
  if (!embedded) {
    const module = await import("./_embedded.ts");
    embedded = module.embeddedFiles;
    embeddedYaml = module.embeddedYaml;
  }
  return embedded;
}

/**
 * The build-time parse of a built-in YAML file (inside the binary only; undefined in a source run or before
 * the file was read). A fresh copy each time: callers merge into and edit what they get.
 */
export function preparsedBuiltinYaml(path: string): unknown {
  const value = embeddedYaml?.[path.replace(/^\.\//, "")];
  return value === undefined ? undefined : structuredClone(value);
}

/** Reads a built-in file by its path in NeMo Gym's layout (`resources_servers/mcqa/configs/mcqa.yaml`). */
export async function readBuiltinFile(path: string): Promise<string | undefined> {
  const clean = path.replace(/^\.\//, "");
  if (builtinDir) {
    const full = join(builtinDir, clean);
    return existsSync(full) && statSync(full).isFile() ? readFileSync(full, "utf8") : undefined;
  }
  return (await embeddedFiles())[clean];
}

/** Lists the built-in files under a folder (recursive), as layout paths, sorted. */
export async function listBuiltinFiles(folder = ""): Promise<string[]> {
  const prefix = folder === "" ? "" : `${folder.replace(/\/$/, "")}/`;
  if (builtinDir) {
    const out: string[] = [];
    const walk = (rel: string) => {
      const full = join(builtinDir!, rel);
      if (!existsSync(full)) return;
      for (const name of readdirSync(full).sort()) {
        if (name.startsWith("_") || name === "node_modules") continue;
        const child = rel === "" ? name : `${rel}/${name}`;
        if (statSync(join(builtinDir!, child)).isDirectory()) walk(child);
        else out.push(child);
      }
    };
    walk(prefix.replace(/\/$/, ""));
    return out.filter((p) => /\.(ya?ml|jsonl|json|md|txt)$/.test(p));
  }
  return Object.keys(await embeddedFiles())
    .filter((p) => p.startsWith(prefix))
    .sort();
}

let extracted: Promise<string> | undefined;

/**
 * The absolute, symlink-resolved path of a built-in file or folder (`resources_servers/mcqa`). In a source run
 * that is src/components/…; inside the binary the built-ins are written once to a cache folder named after
 * their content hash (`$GYM_CACHE_DIR`, else `$XDG_CACHE_HOME/gym`, else `~/.cache/gym`), so the path can be
 * opened, copied or passed to `--config` like any other.
 */
export async function builtinOnDisk(rel: string): Promise<string> {
  const clean = rel.replace(/^\.\//, "").replace(/\/$/, "");
  const { realpathSync } = await import("node:fs");
  if (builtinDir) return realpathSync(join(builtinDir, clean));
  extracted ??= extractBuiltins();
  return join(await extracted, clean);
}

async function extractBuiltins(): Promise<string> {
  const fs = await import("node:fs");
  const { createHash } = await import("node:crypto");
  const { homedir } = await import("node:os");
  const files = await embeddedFiles();
  const hash = createHash("sha256");
  for (const [path, text] of Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1))) hash.update(`${path}\0${text}\0`);
  const base = process.env.GYM_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "gym");
  const target = join(base, `builtin-${hash.digest("hex").slice(0, 16)}`);
  if (!existsSync(target)) {
    // Written to a private folder and renamed into place: a reader never sees half the tree.
    fs.mkdirSync(base, { recursive: true });
    const tmp = fs.mkdtempSync(join(base, ".builtin-"));
    for (const [path, text] of Object.entries(files)) {
      fs.mkdirSync(join(tmp, path, ".."), { recursive: true });
      fs.writeFileSync(join(tmp, path), text);
    }
    try {
      fs.renameSync(tmp, target);
    } catch {
      fs.rmSync(tmp, { recursive: true, force: true }); // another process put it in place first
    }
  }
  return fs.realpathSync(target);
}

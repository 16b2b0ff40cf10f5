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

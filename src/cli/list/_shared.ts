/** The body shared by every `gym list <type>` command and `gym search`: discover, filter, print a table, JSON or an inspect view. */
import { allValues } from "../_command.ts";
import type { ListOptions, ListType } from "../../catalog/views.ts";

/** Flags every listing takes. */
export const listArgs = {
  name: { type: "positional", required: false, description: "Inspect one component by name", valueHint: "NAME" },
  json: { type: "boolean", description: "Print JSON instead of a table" },
  "search-dir": { type: "string", description: "Extra root with your own Gym-layout components (repeatable)", valueHint: "DIR" },
} as const;

/** Runs a listing (or the inspect view when `name` is given) and prints it; returns the exit code. */
export async function runListing(type: ListType, input: { name?: string; query?: string; json: boolean; rawArgs: string[]; kind?: string; filters?: ListOptions["filters"] }): Promise<number> {
  const [{ rootViews }, views, { renderTable, stdoutTableOptions }] = await Promise.all([
    import("../../catalog/components.ts"),
    import("../../catalog/views.ts"),
    import("../../catalog/table.ts"),
  ]);
  const roots = rootViews({ searchDirs: allValues(input.rawArgs, "search-dir") });
  const warn = (line: string) => process.stderr.write(`${line}\n`);
  const table = stdoutTableOptions();
  if (input.name) {
    const inspection = await views.inspectComponent(type, input.name, roots, input.kind as "environment" | "benchmark" | undefined);
    const bold = (s: string) => (table.color ? `\u001b[1m${s}\u001b[0m` : s);
    process.stdout.write(input.json ? `${JSON.stringify(type === "environments" ? await absolutePaths(inspection) : inspection)}\n` : views.inspectionText(inspection, bold));
    return 0;
  }
  const listing = await views.listComponents(type, roots, { query: input.query, filters: input.filters, warn, withTitle: table.tty && !input.json });
  if (input.json) process.stdout.write(`${JSON.stringify(type === "environments" ? await absolutePaths(listing.json) : listing.json)}\n`);
  else if (listing.rows.length === 0) process.stdout.write(table.color ? `\u001b[33m${listing.empty}\u001b[0m\n` : `${listing.empty}\n`);
  else process.stdout.write(renderTable(listing.title, listing.columns, listing.rows, table));
  return 0;
}

const PATH_KEYS = new Set(["path", "config_path", "manifest_path"]);

/** The catalog's paths as the seed promises them in JSON: absolute, symlinks resolved (built-ins: their copy on disk). */
async function absolutePaths<T>(value: T): Promise<T> {
  const [{ builtinOnDisk }, fs, { resolve }] = await Promise.all([import("../../config/builtin-files.ts"), import("node:fs"), import("node:path")]);
  const fix = async (p: string) => {
    if (p.startsWith("<built-in>/")) return builtinOnDisk(p.slice("<built-in>/".length));
    const full = resolve(p);
    return fs.existsSync(full) ? fs.realpathSync(full) : full;
  };
  const walk = async (v: unknown): Promise<unknown> => {
    if (Array.isArray(v)) return Promise.all(v.map(walk));
    if (!v || typeof v !== "object") return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = PATH_KEYS.has(k) && typeof x === "string" ? await fix(x) : await walk(x);
    return out;
  };
  return (await walk(value)) as T;
}

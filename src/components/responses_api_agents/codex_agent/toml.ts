/** The TOML subset Codex's config.toml needs: scalars, arrays and nested tables (written as [a.b] sections). */

export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

const isTable = (v: unknown): v is TomlTable => typeof v === "object" && v !== null && !Array.isArray(v);
const key = (k: string) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k));

function value(v: TomlValue): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${v.map(value).join(", ")}]`;
  return `{ ${Object.entries(v).map(([k, x]) => `${key(k)} = ${value(x)}`).join(", ")} }`;
}

/** The document: a table's scalars first, then each sub-table as its own section. */
export function tomlDocument(table: TomlTable): string {
  return `${body(table, "")}\n`;
}

function body(table: TomlTable, prefix: string): string {
  const lines = Object.entries(table).filter(([, v]) => !isTable(v)).map(([k, v]) => `${key(k)} = ${value(v)}`);
  const sections = Object.entries(table)
    .filter(([, v]) => isTable(v))
    .map(([k, v]) => {
      const name = prefix ? `${prefix}.${key(k)}` : key(k);
      const inner = body(v as TomlTable, name);
      return inner ? `[${name}]\n${inner}` : `[${name}]`;
    });
  return [lines.join("\n"), ...sections].filter(Boolean).join("\n\n");
}

/** `extra` over `base`, tables merged key by key. */
export function deepMerge(base: TomlTable, extra: TomlTable): TomlTable {
  const out: TomlTable = { ...base };
  for (const [k, v] of Object.entries(extra)) out[k] = isTable(v) && isTable(out[k]) ? deepMerge(out[k] as TomlTable, v) : v;
  return out;
}

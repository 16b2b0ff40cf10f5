/** Help text for the root, a group and a command, rendered without loading anything it does not show. */
import type { ArgsDef } from "citty";
import type { GymCommandDef, GroupEntry } from "./_command.ts";
import { isGroup, tree } from "./index.ts";

const GLOBAL_LINES: [string, string][] = [
  ["-h, --help", "Show help for any group or command"],
  ["--version", "Print version and system information (add --json for JSON)"],
  ["--json", "Machine-readable output where a command prints data"],
  ["-v, --verbose", "More detail on stderr"],
  ["--debug", "Show stack traces for errors"],
];

function columns(rows: [string, string][], indent = "  "): string {
  const width = Math.min(34, Math.max(...rows.map(([left]) => left.length)));
  return rows
    .map(([left, right]) => (left.length > width ? `${indent}${left}\n${indent}${" ".repeat(width + 2)}${right}` : `${indent}${left.padEnd(width)}  ${right}`))
    .join("\n");
}

export function rootHelp(): string {
  const rows: [string, string][] = [];
  for (const [name, entry] of Object.entries(tree)) {
    if (isGroup(entry) && Object.keys(entry.commands).length === 0) continue;
    rows.push([name, entry.description]);
  }
  return [
    "gym — NeMo Gym's command line as one binary (`ng` is the same program)",
    "",
    "Usage: gym <group> <command> [options] [+key=value ...]",
    "",
    "Groups:",
    columns(rows),
    "",
    "Options:",
    columns(GLOBAL_LINES),
    "",
    "Run `gym <group> --help` for a group's commands.",
  ].join("\n");
}

export function groupHelp(name: string, group: GroupEntry): string {
  const rows = Object.entries(group.commands).map(([command, entry]) => [command, entry.description] as [string, string]);
  return [`gym ${name} — ${group.description}`, "", `Usage: gym ${name} <command> [options]`, "", "Commands:", columns(rows), "", `Run \`gym ${name} <command> --help\` for a command's options.`].join("\n");
}

function flagLabel(name: string, def: ArgsDef[string]): string {
  // A flag that is on by default is shown by the spelling that turns it off (citty reads `--no-NAME`).
  if (def.type === "boolean" && def.default === true) return `--no-${name}`;
  const short = flagAliases(def).filter((a) => a.length === 1).map((a) => `-${a}, `).join("");
  const hint = def.type === "boolean" ? "" : ` ${def.valueHint ?? name.replace(/-/g, "_").toUpperCase()}`;
  return `${short}--${name}${hint}`;
}

/** A flag's other spellings (`alias: "o"` or `alias: ["o", "out"]`); positionals have none. */
export function flagAliases(def: ArgsDef[string]): string[] {
  const alias = "alias" in def ? def.alias : undefined;
  return alias === undefined ? [] : Array.isArray(alias) ? alias : [alias];
}

export function commandHelp(path: string, command: GymCommandDef<ArgsDef>): string {
  const positionals = Object.entries(command.args).filter(([, def]) => def.type === "positional");
  const flags = Object.entries(command.args).filter(([, def]) => def.type !== "positional");
  const usage = [
    `gym ${path}`,
    ...positionals.map(([name, def]) => {
      const shown = `${name.toUpperCase()}${(def as { variadic?: boolean }).variadic ? " ..." : ""}`;
      return def.required === false ? `[${shown}]` : `<${shown}>`;
    }),
    flags.length > 0 ? "[options]" : "",
    command.overrides ? "[+key=value ...]" : "",
  ].filter(Boolean);
  const lines = [`gym ${path} — ${command.meta.description}`, "", `Usage: ${usage.join(" ")}`];
  if (positionals.length > 0) {
    lines.push("", "Arguments:", columns(positionals.map(([name, def]) => [name.toUpperCase(), def.description ?? ""])));
  }
  const flagRows: [string, string][] = flags.map(([name, def]) => {
    const negated = def.type === "boolean" && def.default === true;
    const extra = def.default !== undefined && def.default !== false && !negated ? ` (default: ${def.default})` : "";
    const choices = "options" in def && def.options ? ` (one of: ${def.options.join(", ")})` : "";
    const text = negated ? ((def as { negativeDescription?: string }).negativeDescription ?? `Turn off: ${def.description ?? name}`) : (def.description ?? "");
    return [flagLabel(name, def), `${text}${choices}${extra}`];
  });
  flagRows.push(["-h, --help", "Show this help"]);
  lines.push("", "Options:", columns(flagRows));
  if (command.overrides) {
    lines.push("", "Config overrides (Hydra syntax): +key=value adds a key, ++key=value adds or replaces one.");
  }
  if (command.examples?.length) lines.push("", "Examples:", ...command.examples.map((e) => `  ${e}`));
  return lines.join("\n");
}

/** The shell: finds the command in argv (with did-you-mean), checks its flags, runs it, maps errors to exit codes. */
import { parseArgs, type ArgsDef } from "citty";
import { EXIT, GymError, isGymError, toGymError } from "../errors.ts";
import { closeMatches } from "../text/difflib.ts";
import { isStackOverflow, tooDeepError } from "../jsonl/json-depth.ts";
import type { GymCommandDef } from "./_command.ts";
import { commandHelp, flagAliases, groupHelp, rootHelp } from "./_help.ts";
import { isGroup, tree } from "./index.ts";

const OVERRIDE_TOKEN = /^(\+\+|\+|~)?[A-Za-z_$][\w.\-/@$]*(=|$)/;

interface GlobalFlags {
  help: boolean;
  json: boolean;
  verbose: boolean;
  debug: boolean;
  version: boolean;
  /** For a command that can resume: the command line that finishes it (named when a full disk stops it). */
  resumeLine?: string;
}

/** Runs the CLI on argv (without the program name) and returns the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const global: GlobalFlags = { help: false, json: false, verbose: false, debug: false, version: false };
  try {
    return await dispatch(argv, global);
  } catch (error) {
    return reportError(toGymError(error, { resume: global.resumeLine }) ?? error, global.debug);
  }
}

async function dispatch(argv: string[], global: GlobalFlags): Promise<number> {
  const rest = takeGlobalFlags(argv, global);
  const groupIndex = rest.findIndex((token) => !token.startsWith("-"));
  if (global.version && groupIndex === -1) {
    const { printVersion } = await import("./version.ts");
    await printVersion(global.json);
    return EXIT.ok;
  }
  if (groupIndex === -1) {
    print(rootHelp());
    if (rest.length > 0) throw unknownFlag(rest[0]!, ["--help", "--version", "--json", "--verbose", "--debug"], "gym");
    return global.help ? EXIT.ok : EXIT.failure;
  }
  if (groupIndex > 0) throw unknownFlag(rest[0]!, ["--help", "--version", "--json", "--verbose", "--debug"], "gym");
  const groupName = rest[0]!;
  const entry = tree[groupName];
  if (!entry || (isGroup(entry) && Object.keys(entry.commands).length === 0)) {
    const visible = Object.entries(tree).filter(([, e]) => !isGroup(e) || Object.keys(e.commands).length > 0).map(([n]) => n);
    throw unknownCommand(groupName, visible, "gym");
  }
  if (!isGroup(entry)) return runCommand(groupName, entry, rest.slice(1), global);
  const commandIndex = rest.slice(1).findIndex((token) => !token.startsWith("-"));
  if (commandIndex !== 0) {
    if (commandIndex > 0 && !global.help) throw unknownFlag(rest[1]!, ["--help"], `gym ${groupName}`);
    print(groupHelp(groupName, entry));
    return global.help ? EXIT.ok : EXIT.failure;
  }
  const commandName = rest[1]!;
  const command = entry.commands[commandName];
  if (!command) throw unknownCommand(commandName, Object.keys(entry.commands), `gym ${groupName}`);
  return runCommand(`${groupName} ${commandName}`, command, rest.slice(2), global);
}

async function runCommand(path: string, entry: { load: () => Promise<{ default: GymCommandDef<any> }> }, tokens: string[], global: GlobalFlags): Promise<number> {
  const command = (await entry.load()).default as GymCommandDef<ArgsDef>;
  if (global.help) {
    print(commandHelp(path, command));
    return EXIT.ok;
  }
  // Only a command whose `json` is a string flag (`--json PATH`) sees --json where it was typed; others get it last, once.
  if ((command.args.json as { type?: string } | undefined)?.type !== "string" && tokens.includes("--json")) tokens = [...tokens.filter((t) => t !== "--json"), "--json"];
  if ("resume" in command.args) global.resumeLine = resumeCommand(path, tokens);
  const { flags, overrides } = splitOverrides(tokens, command);
  checkFlags(flags, command.args, `gym ${path}`);
  let args;
  try {
    args = parseArgs(flags, command.args);
  } catch (error) {
    throw new GymError("E_MISSING_ARGUMENT", (error as Error).message.replace(/\u001b\[\d+m/g, ""), { hint: `Run \`gym ${path} --help\` for usage.` });
  }
  // citty reads any `--no-X` as "X is false"; a flag declared as `no-X` itself is set here instead.
  for (const key of Object.keys(command.args)) if (key.startsWith("no-") && flags.includes(`--${key}`)) (args as Record<string, unknown>)[key] = true;
  if ("json" in command.args && args.json) global.json = true;
  const code = await command.run({ args, overrides, rawArgs: flags, json: global.json, verbose: global.verbose });
  return typeof code === "number" ? code : EXIT.ok;
}

/** Removes the flags that mean the same everywhere; returns the other tokens in order. */
function takeGlobalFlags(argv: string[], global: GlobalFlags): string[] {
  const rest: string[] = [];
  let jsonFirst = false;
  for (const token of argv) {
    if (token === "-h" || token === "--help") global.help = true;
    else if (token === "--version") global.version = true;
    else if (token === "--json") {
      global.json = true;
      // After the command name it stays where it is: a command may take it as `--json PATH` (runCommand moves it last otherwise).
      if (rest.filter((t) => !t.startsWith("-")).length >= 2) rest.push(token);
      else jsonFirst = true;
    } else if (token === "-v" || token === "--verbose") global.verbose = true;
    else if (token === "--debug") global.debug = true;
    else rest.push(token);
  }
  // --json is also a command flag where a command declares it; put it back for citty to see.
  if (jsonFirst) rest.push("--json");
  return rest;
}

function splitOverrides(tokens: string[], command: GymCommandDef<ArgsDef>): { flags: string[]; overrides: string[] } {
  const flags: string[] = [];
  const overrides: string[] = [];
  const takesValue = (token: string) => {
    const name = token.replace(/^--?/, "").split("=")[0]!;
    const def = findArg(command.args, name);
    return def !== undefined && def.type !== "boolean" && !token.includes("=");
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.startsWith("-") && token !== "-") {
      const inline = /^(--?[\w-]+)=(.*)$/s.exec(token);
      if (inline && findArg(command.args, inline[1]!.replace(/^--?/, ""))) checkFlagValue(inline[1]!, inline[2]!);
      flags.push(token);
      // `--json` alone means stdout for a command whose --json optionally takes a PATH (dev compare).
      if (token === "--json" && takesValue(token)) {
        if (i + 1 < tokens.length && !tokens[i + 1]!.startsWith("--")) flags.push(tokens[++i]!);
      } else if (takesValue(token)) {
        const value = flagValue(token, tokens[++i], command);
        // A flag of two numbers (`--reward-range 0 1`) takes the second too, as `0,1`.
        const def = findArg(command.args, token.replace(/^--?/, "")) as { values?: number } | undefined;
        if (def?.values === 2 && !value.includes(",") && /^-?\d/.test(tokens[i + 1] ?? "")) flags.push(`${value},${tokens[++i]}`);
        else flags.push(value);
      }
    } else if ((token.startsWith("+") || token.startsWith("~") || /^[A-Za-z_][\w.\-/]*=/.test(token)) && OVERRIDE_TOKEN.test(token)) {
      if (!command.overrides) {
        throw new GymError("E_USAGE", `gym ${command.meta.name} takes no config overrides, but got '${token}'.`, {
          hint: `Run \`gym ${command.meta.name} --help\` for its options.`,
        });
      }
      overrides.push(token);
    } else flags.push(token);
  }
  return { flags, overrides };
}

/** The value after a flag that takes one: missing, or another flag in its place (`--output --resume`), is an error. */
function flagValue(flag: string, value: string | undefined, command: GymCommandDef<ArgsDef>): string {
  const where = `gym ${command.meta.name}`;
  if (value === undefined) {
    throw new GymError("E_MISSING_ARGUMENT", `${flag} needs a value.`, { hint: `Put it right after the flag, e.g. ${flag} VALUE; run \`${where} --help\` for its options.` });
  }
  if (value.startsWith("-") && value !== "-" && !/^-(\d|\.\d)/.test(value)) {
    throw new GymError("E_BAD_FLAG_VALUE", `${flag} needs a value, but the next token is the option '${value}'.`, {
      hint: `Give ${flag} its value first (e.g. ${flag} VALUE ${value}); a value that itself starts with '-' is written ${flag}=${value}.`,
    });
  }
  checkFlagValue(flag, value);
  return value;
}

/**
 * What no flag takes: an empty value (an unset shell variable, `--input "$DATA"`, would otherwise fall back to a
 * default silently), and for an output file a path ending in '/' (a folder; it would write `<folder>.jsonl`).
 */
function checkFlagValue(flag: string, value: string): void {
  if (value === "") {
    throw new GymError("E_BAD_FLAG_VALUE", `${flag} got an empty value.`, { hint: `Give ${flag} a value, or leave the flag out; an unset shell variable expands to nothing (check the variable you passed).` });
  }
  if ((flag === "--output" || flag === "-o") && value !== "-" && /[\\/]$/.test(value)) {
    throw new GymError("E_BAD_FLAG_VALUE", `${flag} ${value} ends with '/', so it names a folder, where a file is expected.`, { hint: `Name a file inside it, e.g. ${flag} ${value}rollouts.jsonl.` });
  }
}

/** The same command line with --resume, for the hint of an error that a resume finishes. */
function resumeCommand(path: string, tokens: string[]): string {
  const shown = tokens.map((t) => (/^[\w@%+=:,./-]+$/.test(t) ? t : `'${t.replace(/'/g, "'\\''")}'`));
  return `gym ${path} ${shown.join(" ")}${tokens.includes("--resume") ? "" : " --resume"}`;
}

function findArg(args: ArgsDef, name: string): ArgsDef[string] | undefined {
  for (const [key, def] of Object.entries(args)) {
    if (def.type === "positional") continue;
    if (key === name || flagAliases(def).includes(name) || kebab(key) === name) return def;
    if (def.type === "boolean" && (name === `no-${key}` || name === `no-${kebab(key)}`)) return def;
  }
  return undefined;
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function checkFlags(flags: string[], args: ArgsDef, where: string): void {
  const known = Object.entries(args)
    .filter(([, def]) => def.type !== "positional")
    .map(([name]) => `--${kebab(name)}`);
  for (const token of flags) {
    if (!token.startsWith("-") || token === "-" || token === "--") continue;
    if (/^-\d/.test(token)) continue;
    const name = token.replace(/^--?/, "").split("=")[0]!;
    if (name === "json" && !findArg(args, "json")) continue;
    if (!findArg(args, name)) throw unknownFlag(token.split("=")[0]!, known, where);
  }
  const positionals = Object.values(args).filter((def) => def.type === "positional").length;
  // A positional declared `variadic: true` (gym view's PATH ...) takes every remaining argument (citty gives them in `_`).
  const variadic = Object.values(args).some((def) => def.type === "positional" && (def as { variadic?: boolean }).variadic);
  const given = countPositionals(flags, args);
  if (!variadic && given > positionals) {
    const extra = positionalTokens(flags, args)[positionals] ?? "";
    throw new GymError("E_USAGE", `Unexpected argument '${extra}' for ${where}.`, { hint: `Run \`${where} --help\` for usage.` });
  }
}

function countPositionals(flags: string[], args: ArgsDef): number {
  return positionalTokens(flags, args).length;
}

/** The tokens that are not flags nor flag values (so an error blames the token that is really extra). */
function positionalTokens(flags: string[], args: ArgsDef): string[] {
  const out: string[] = [];
  for (let i = 0; i < flags.length; i++) {
    const token = flags[i]!;
    if (token.startsWith("-") && token !== "-") {
      const def = findArg(args, token.replace(/^--?/, "").split("=")[0]!);
      if (def && def.type !== "boolean" && !token.includes("=")) i++;
    } else out.push(token);
  }
  return out;
}

function unknownCommand(name: string, choices: string[], where: string): GymError {
  const [guess] = closeMatches(name, choices, 1, 0.6);
  return new GymError("E_UNKNOWN_COMMAND", `Unknown command '${name}' for ${where}.${guess ? ` Did you mean '${guess}'?` : ""}`, {
    hint: `Choose one of: ${choices.join(", ")}. Run \`${where} --help\` for details.`,
  });
}

function unknownFlag(token: string, known: string[], where: string): GymError {
  const [guess] = closeMatches(token, known, 1, 0.6);
  return new GymError("E_UNKNOWN_FLAG", `Unknown option '${token}' for ${where}.${guess ? ` Did you mean '${guess}'?` : ""}`, {
    hint: `Run \`${where} --help\` for its options.`,
  });
}

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

function reportError(error: unknown, debug: boolean): number {
  const color = !process.env.NO_COLOR && process.stderr.isTTY;
  const red = (s: string) => (color ? `\u001b[31m${s}\u001b[39m` : s);
  const dim = (s: string) => (color ? `\u001b[2m${s}\u001b[22m` : s);
  if (isGymError(error)) {
    process.stderr.write(`${red("Error:")} ${error.message}\n`);
    if (error.hint) process.stderr.write(`${dim("Hint:")} ${error.hint}\n`);
    if (debug && error.stack) process.stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  if (isStackOverflow(error)) {
    // A value nested thousands of levels deep, walked recursively after it was read (the readers refuse most up front).
    const deep = tooDeepError("an input row");
    process.stderr.write(`${red("Error:")} ${deep.message}\n${dim("Hint:")} ${deep.hint}\n`);
    if (debug && (error as Error).stack) process.stderr.write(`${(error as Error).stack}\n`);
    return deep.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${red("Error:")} unexpected failure: ${message}\n`);
  if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  else process.stderr.write(`${dim("Hint:")} run again with --debug for the stack trace, and report it if it is a bug.\n`);
  return EXIT.failure;
}

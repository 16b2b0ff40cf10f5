/** How commands are declared: citty definitions, plus what the shell hands them (overrides, global flags). */
import { defineCommand, type ArgsDef, type CommandDef, type ParsedArgs } from "citty";

/** Hydra-style override tokens found on the command line (`+k=v`, `++k=v`, `~k`, `k=v`), in order. */
export type OverrideTokens = string[];

/** What every command's `run` receives besides its parsed flags. */
export interface GymContext<T extends ArgsDef> {
  args: ParsedArgs<T>;
  overrides: OverrideTokens;
  /** The flag tokens as given (for repeatable flags: see `allValues`). */
  rawArgs: string[];
  /** `--json` given anywhere (also before the group: `gym --json dev compare A B`). */
  json: boolean;
  verbose: boolean;
}

export interface GymCommandDef<T extends ArgsDef> {
  meta: { name: string; description: string };
  args: T;
  /** Whether `+key=value` override tokens are accepted (config-driven commands). */
  overrides?: boolean;
  /** Extra lines printed after the flags in `--help`: examples, notes. */
  examples?: string[];
  /** Returns an exit code, or nothing for 0. */
  run(context: GymContext<T>): Promise<number | void> | number | void;
}

/** Every value of a repeatable flag (`--config a --config b`, `--config=c`), in order. */
export function allValues(rawArgs: string[], name: string, alias?: string): string[] {
  const names = new Set([`--${name}`, ...(alias ? [`-${alias}`] : [])]);
  const values: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const token = rawArgs[i]!;
    const eq = token.indexOf("=");
    if (eq > 0 && names.has(token.slice(0, eq))) values.push(token.slice(eq + 1));
    else if (names.has(token) && i + 1 < rawArgs.length) values.push(rawArgs[++i]!);
  }
  return values;
}

/** The value of a Hydra-style override token (`+key=value`, `++key=value`, `key=value`); the last one wins. */
export function overrideValue(overrides: string[], key: string): string | undefined {
  let found: string | undefined;
  for (const token of overrides) {
    const m = /^\+{0,2}([^=]+)=(.*)$/.exec(token);
    if (m && m[1] === key) found = m[2];
  }
  return found;
}

/** Declares a command. Flags are citty's; the shell validates them before `run` is called. */
export function defineGymCommand<const T extends ArgsDef>(def: GymCommandDef<T>): GymCommandDef<T> {
  return def;
}

/** A lazily loaded command, with the description help needs (so help never loads the command). */
export interface CommandEntry {
  description: string;
  load: () => Promise<{ default: GymCommandDef<any> }>;
}

/** A group of commands (`gym eval …`). */
export interface GroupEntry {
  description: string;
  commands: Record<string, CommandEntry>;
}

export type { CommandDef };
export { defineCommand };

/** Judge prompt templates: found where NeMo Gym's relative paths point (built-in files first, then disk), filled as Python's str.format. */
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, posix } from "node:path";
import { readBuiltinFile } from "../../../config/builtin-files.ts";
import { GymError } from "../../../errors.ts";
import { parse as parseYaml } from "yaml";

/**
 * Reads a prompt file named by a server's config. NeMo Gym runs each server with its own folder as the
 * working directory, so `prompt_templates/x.txt` and `../../benchmarks/hle/prompts/judge.txt` are relative to
 * `resources_servers/<server>/`; the built-in copy (embedded in the binary) is used when the path lands in
 * the built-in tree, otherwise the path is read from disk (absolute, or relative to the current directory).
 */
export async function readPromptFile(path: string, server: string, key: string): Promise<string> {
  if (!isAbsolute(path)) {
    for (const candidate of [posix.normalize(posix.join("resources_servers", server, path)), posix.normalize(path)]) {
      if (candidate.startsWith("..")) continue;
      const builtin = await readBuiltinFile(candidate);
      if (builtin !== undefined) return builtin;
    }
  }
  if (existsSync(path)) return readFileSync(path, "utf8");
  throw new GymError("E_CONFIG", `The judge prompt file '${path}' (${server}.${key}) was found neither among the built-in files nor on disk.`, {
    hint: `Set ${key} to a file that exists (absolute, or relative to the current directory), or drop the override to use the built-in prompt.`,
  });
}

/** A YAML prompt file's `key` entry (simpleqa's `user:`, arena's `system:`/`user:`), checked to be a string. */
export function promptFromYaml(text: string, key: string, path: string): string {
  const data = parseYaml(text) as Record<string, unknown> | null;
  const value = data?.[key];
  if (typeof value !== "string") throw new GymError("E_CONFIG", `The judge prompt file '${path}' has no string '${key}' entry.`, { hint: `Add '${key}: |-' with the prompt text to ${path}.` });
  return value;
}

/**
 * Python's `template.format(**values)` for plain `{name}` fields: `{{`/`}}` are literal braces; a field
 * naming no value is a KeyError, a lone `}` or an unclosed `{` a ValueError (both are server errors, as in Python).
 */
export function pyFormat(template: string, values: Record<string, string>): string {
  let out = "";
  for (let i = 0; i < template.length; i++) {
    const ch = template[i]!;
    if (ch === "{") {
      if (template[i + 1] === "{") {
        out += "{";
        i++;
        continue;
      }
      const end = template.indexOf("}", i);
      if (end < 0) throw new Error("ValueError: Single '{' encountered in format string");
      const field = template.slice(i + 1, end);
      const name = field.split(/[!:.[]/)[0]!;
      if (!Object.hasOwn(values, name)) throw new Error(`KeyError: '${name}'`);
      out += values[name];
      i = end;
    } else if (ch === "}") {
      if (template[i + 1] !== "}") throw new Error("ValueError: Single '}' encountered in format string");
      out += "}";
      i++;
    } else out += ch;
  }
  return out;
}

/** NeMo Gym's prompt YAML (`nemo_gym.prompt.PromptConfig`): a required `user` template, an optional `system` one. */
export interface PromptTemplates {
  user: string;
  system?: string;
}

/** Parses a prompt YAML file's text (`user` required, `system` optional). */
export function promptTemplatesFromYaml(text: string, path: string): PromptTemplates {
  const user = promptFromYaml(text, "user", path);
  const system = (parseYaml(text) as Record<string, unknown>).system;
  if (system !== undefined && system !== null && typeof system !== "string") throw new GymError("E_CONFIG", `The judge prompt file '${path}' has a 'system' entry that is not a string.`, { hint: `Make 'system' a string in ${path}, or remove it.` });
  return typeof system === "string" ? { user, system } : { user };
}

/** `fill_prompt`: the system message (when the file has one) and the user message, each filled as `str.format_map(values)`. */
export function fillPrompt(templates: PromptTemplates, values: Record<string, string>): { role: string; content: string }[] {
  const messages = templates.system === undefined ? [] : [{ role: "system", content: pyFormat(templates.system, values) }];
  messages.push({ role: "user", content: pyFormat(templates.user, values) });
  return messages;
}

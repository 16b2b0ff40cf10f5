/** Prompt configs (`prompt_config`): a YAML `system`/`user` template pair that builds `responses_create_params.input` for a row. */
import { parse as parseYaml } from "yaml";
import { GymError } from "../errors.ts";
import { refuseNul } from "../text/utf8.ts";
import { readFromRoots, type Root } from "../config/roots.ts";
import { fillTemplate, parseTemplate, type TemplatePart } from "./prompt-format.ts";

/** A loaded prompt config: where it came from and its parsed templates. */
export interface PromptConfig {
  /** The resolved path (absolute, or `<built-in>/…`); `dataset render` records it as `prompt_config_used`. */
  path: string;
  system?: TemplatePart[];
  user: TemplatePart[];
}

/** Parses prompt-config YAML text: a mapping with a required string `user` and an optional string `system`; other keys are ignored. */
export function parsePromptConfig(text: string, path: string): PromptConfig {
  let data: unknown;
  refuseNul(text, path);
  try {
    data = parseYaml(text, { maxAliasCount: 1000 });
  } catch (error) {
    throw new GymError("E_CONFIG_SYNTAX", `${path}: not valid YAML: ${(error as Error).message.split("\n")[0]}`, { hint: "Fix the YAML syntax of the prompt config." });
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) {
    throw new GymError("E_CONFIG", `${path}: a prompt config must be a mapping with a 'user' template (and optionally 'system').`, {
      hint: "Write e.g. `user: \"Solve: {question}\"`.",
    });
  }
  const { user, system } = data as Record<string, unknown>;
  if (typeof user !== "string") {
    throw new GymError("E_CONFIG", `${path}: key 'user' must be a string template, got ${user === undefined ? "nothing" : JSON.stringify(user)}.`, {
      hint: "Add `user: \"…{field}…\"` — placeholders name top-level fields of each row.",
    });
  }
  if (system !== undefined && system !== null && typeof system !== "string") {
    throw new GymError("E_CONFIG", `${path}: key 'system' must be a string template or absent, got ${JSON.stringify(system)}.`);
  }
  return {
    path,
    system: typeof system === "string" ? parseTemplate(system, `${path}: system`) : undefined,
    user: parseTemplate(user, `${path}: user`),
  };
}

const cache = new Map<string, PromptConfig>();

/** Loads a prompt config through the component roots (relative paths: first root that has it), cached per resolved path. */
export async function loadPromptConfig(entry: string, roots: Root[]): Promise<PromptConfig> {
  const { found, searched } = await readFromRoots(entry, roots);
  if (!found) {
    throw new GymError("E_INPUT_NOT_FOUND", `Prompt config not found: ${entry}`, {
      hint: `Looked in:\n  ${searched.join("\n  ")}\nPass a path relative to the cwd or a --search-dir root, or an absolute path.`,
    });
  }
  const cached = cache.get(found.display);
  if (cached) return cached;
  const config = parsePromptConfig(found.text, found.display);
  cache.set(found.display, config);
  return config;
}

/** The input messages a template makes for one row: system (when given), then user. */
export function promptMessages(config: PromptConfig, row: Record<string, unknown>, where: string): { role: string; content: string }[] {
  const messages: { role: string; content: string }[] = [];
  if (config.system) messages.push({ role: "system", content: fillTemplate(config.system, row, where) });
  messages.push({ role: "user", content: fillTemplate(config.user, row, where) });
  return messages;
}

/** Whether a row already carries a non-empty `responses_create_params.input` (which excludes a template). */
export function hasPromptInput(row: Record<string, unknown>): boolean {
  const params = row.responses_create_params;
  if (!params || typeof params !== "object" || Array.isArray(params)) return false;
  const input = (params as Record<string, unknown>).input;
  return !(input === undefined || input === null || input === "" || input === false || input === 0 || (Array.isArray(input) && input.length === 0) || (typeof input === "object" && !Array.isArray(input) && Object.keys(input).length === 0));
}

/** Throws when a single row conflicts with a template (collate checks row by row, as NeMo Gym does). */
export function checkPromptCompatibility(row: Record<string, unknown>, index: number, where: string): void {
  if (hasPromptInput(row)) throw mutualExclusionError([index], where);
}

/** The error naming every row that already has an input while a prompt config is given. */
export function mutualExclusionError(indices: number[], where: string): GymError {
  return new GymError(
    "E_INPUT_SCHEMA",
    `${where}: ${indices.length} row(s) already have responses_create_params.input, but a prompt config is also given; the two are mutually exclusive. Violating rows (0-based): [${indices.join(", ")}]`,
    { hint: "Remove responses_create_params.input from those rows, or drop --prompt-config / prompt_config." },
  );
}

/** Returns a new row whose `responses_create_params` (shallow copy, other keys kept) has `input` from the template. */
export function applyPrompt(row: Record<string, unknown>, config: PromptConfig, where: string): Record<string, unknown> {
  const input = promptMessages(config, row, where);
  const params = row.responses_create_params;
  const copy = params && typeof params === "object" && !Array.isArray(params) ? { ...(params as Record<string, unknown>) } : {};
  copy.input = input;
  return { ...row, responses_create_params: copy };
}

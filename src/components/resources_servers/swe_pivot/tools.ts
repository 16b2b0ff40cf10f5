/**
 * swe_pivot's view of tool calls (NeMo Gym's helpers): tool names of OpenHands / OpenCode / Codex mapped to seven
 * categories, and the arguments an action is compared by (path, command, edit content, view range). Arguments are
 * JSON values with Python's semantics for `in`, `[]` and `.get` (a non-dict raises where Python raises).
 */
import { PyException } from "../_python/errors.ts";
import { pyInt } from "../_python/number.ts";
import { pyCompile, pyFindall } from "../_python/re.ts";
import { pyIn, pyJsonLoads, pyStr } from "../_python/values.ts";
import { pyLen, pySplit, pyStrip } from "../_python/text.ts";

const CATEGORIES: Record<string, string[]> = {
  edit: ["str_replace_editor", "text_editor", "file_editor", "code_editor", "edit_file", "modify_file", "update_file", "file_edit", "edit", "modify", "apply_patch", "patch_file", "apply_diff", "apply_changes", "write", "write_file", "save_file", "create_file"],
  bash: ["execute_bash", "run_bash", "bash_exec", "shell_run", "shell", "bash", "terminal", "shell_command", "shell_cmd", "run_shell_cmd", "exec_command", "exec_cmd"],
  search: ["grep", "search_text", "find_pattern", "text_search", "glob", "find_files", "file_glob", "match_files", "grep_files", "search_files", "find_in_files", "code_search", "list_dir", "ls", "show_dir", "ls_dir", "list_directory"],
  read: ["read", "read_file", "view_file", "cat_file", "view", "file_view", "inspect", "show_file", "read_file_content"],
  finish: ["finish", "submit"],
  think: ["think"],
  planning: ["task_tracker", "todo_tracker", "plan_tracker", "todo_read", "todo_write", "update_plan", "list_tasks", "update_tasks", "read_todos", "write_todos", "edit_plan", "modify_plan"],
};

const CATEGORY = new Map<string, string>();
for (const [category, names] of Object.entries(CATEGORIES)) {
  // Each name and its CamelCase form, both lower-cased (`str_replace_editor`, `strreplaceeditor`).
  for (const name of names) for (const key of [name.toLowerCase(), name.split("_").join("").toLowerCase()]) CATEGORY.set(key, category);
}

export function toolCategory(name: unknown): string {
  if (typeof name !== "string") throw new PyException("AttributeError", "'name' has no attribute 'lower'");
  return CATEGORY.get(name.toLowerCase()) ?? "unknown";
}

export type Args = unknown;

const typeName = (x: unknown) => (x === null ? "NoneType" : typeof x === "number" ? (Number.isInteger(x) ? "int" : "float") : typeof x === "boolean" ? "bool" : typeof x === "string" ? "str" : Array.isArray(x) ? "list" : "dict");
const isDict = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === "object" && !Array.isArray(x);

/** `key in args`. */
export function has(args: Args, key: string): boolean {
  if (isDict(args)) return Object.hasOwn(args, key);
  if (Array.isArray(args)) return pyIn(key, args);
  if (typeof args === "string") return args.includes(key);
  throw new PyException("TypeError", `argument of type '${typeName(args)}' is not iterable`);
}

/** `args[key]`. */
function item(args: Args, key: string): unknown {
  if (!isDict(args)) throw new PyException("TypeError", `${typeName(args)} indices must be integers or slices, not str`);
  if (!Object.hasOwn(args, key)) throw new PyException("KeyError", key);
  return args[key];
}

/** `args.get(key, fallback)`. */
export function get(args: Args, key: string, fallback: unknown = null): unknown {
  if (!isDict(args)) throw new PyException("AttributeError", `'${typeName(args)}' object has no attribute 'get'`);
  return Object.hasOwn(args, key) ? args[key] : fallback;
}

/** `_parse_arguments`: a dict as is, a string as JSON (a bad one is `{}`), anything else `{}`. */
export function parseArguments(raw: unknown): Args {
  if (isDict(raw)) return raw;
  if (typeof raw === "string") {
    try {
      return pyJsonLoads(raw);
    } catch {
      return {};
    }
  }
  return {};
}

function firstOf(args: Args, keys: string[]): string {
  for (const key of keys) if (has(args, key)) return pyStrip(pyStr(item(args, key)));
  return "";
}

export const filePath = (args: Args) => firstOf(args, ["path", "file", "file_path", "filename", "file_name"]);
export const command = (args: Args) => firstOf(args, ["command", "cmd"]);
export const editorCommand = (args: Args) => pyStr(get(args, "command", ""));

/** The last `n` components of a path, leading and trailing slashes dropped. */
export function pathSuffix(path: string, n = 3): string {
  let p = path;
  while (p.startsWith("/")) p = p.slice(1);
  while (p.endsWith("/")) p = p.slice(0, -1);
  return p.split("/").slice(-n).join("/");
}

/** The text an edit is compared by: old and new strings, a patch, a diff, or the written content. */
export function editContent(args: Args): string {
  const parts: string[] = [];
  if (has(args, "new_str")) parts.push(pyStr(get(args, "old_str", "")), pyStr(item(args, "new_str")));
  else if (has(args, "patch")) parts.push(pyStr(item(args, "patch")));
  else if (has(args, "diff")) parts.push(pyStr(item(args, "diff")));
  else if (has(args, "content") || has(args, "file_text")) parts.push(pyStr(get(args, "content", get(args, "file_text", ""))));
  return parts.join("\n");
}

/** The command's first word, without its directory. */
export function commandVerb(cmd: string): string {
  const words = pySplit(cmd);
  return words.length === 0 ? "" : words[0]!.split("/").at(-1)!;
}

const PATH_IN_COMMAND = String.raw`(?:^|[\s='"(])((?:/[\w._-]+)+|\.\.?/[\w._/-]+|[\w._-]+/[\w._/-]+)`;

/** Paths a shell command names (absolute, ./relative, dir/file), without `--flags` and one- or two-character hits. */
export function commandPaths(cmd: string): string[] {
  if (!cmd) return [];
  return (pyFindall(pyCompile(PATH_IN_COMMAND), cmd) as string[]).filter((p) => !p.startsWith("--") && pyLen(p) > 2);
}

/** `_parse_view_range`: `[start, end]` (or its JSON text) as two ints, else null. */
export function viewRange(raw: unknown): [number, number] | null {
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = pyJsonLoads(raw);
    } catch {
      return null;
    }
  } else if (!Array.isArray(raw)) return null;
  if (!Array.isArray(value) || value.length !== 2) return null;
  try {
    return [pyInt(value[0]), pyInt(value[1])];
  } catch {
    return null;
  }
}

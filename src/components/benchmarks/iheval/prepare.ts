/**
 * iheval: the whole IHEval dataset in the Responses shape, as NeMo Gym's resources_servers/iheval/prepare_iheval.py
 * builds it from the IHEval repository's `benchmark/<domain>/<task>/<setting>/input_data.json` files (system prompt,
 * pre-canned conversation, the instruction, a pre-canned tool call and its result; the gold `answer` JSON-encoded),
 * then benchmarks/iheval/prepare.py's renaming (the benchmark's agent, `id` as a string). The repository comes as
 * GitHub's archive of its main branch through the download cache (`+prepare_script_args={url: …}` for a mirror).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cacheDir, downloadFile } from "../../../download/index.ts";
import { GymError } from "../../../errors.ts";
import { parsePythonJson, stringifyPython } from "../../../metrics/pyjson.ts";
import { pyStr } from "../../resources_servers/_python/values.ts";
import { writePythonJsonl } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";
import { readZipFiles } from "../../../download/zip.ts";

export const IHEVAL_ZIP = "https://github.com/ytyz1307zzh/IHEval/archive/refs/heads/main.zip";
const TOP = "IHEval-main";
const AGENT = "iheval_benchmark_simple_agent";
export const TASKS: [string, string][] = [
  ["task-execution", "verb-extract"],
  ["task-execution", "translation"],
  ["task-execution", "lang-detect"],
  ["safety", "system-prompt-extract"],
  ["safety", "user-prompt-hijack"],
  ["tool-use", "slack-user"],
  ["tool-use", "get-webpage"],
  ["rule-following", "single-turn"],
  ["rule-following", "multi-turn"],
];

type Row = Record<string, unknown>;

/** Python's sorted() of Path objects: component by component. */
function byComponents(a: string, b: string): number {
  const [x, y] = [a.split("/"), b.split("/")];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return x.length - y.length;
}

const dumps = (value: unknown) => stringifyPython(value, { spaced: true, ensureAscii: false });

/** `_build_messages`: [system?, the conversation so far?, the instruction, the tool call and its result?] and the tool. */
export function buildMessages(example: Row): { input: Row[]; tools?: Row[] } {
  const input: Row[] = [];
  const history = example.conversation_history;
  if (Array.isArray(history) && history.length > 0) history.forEach((msg, i) => input.push({ role: i % 2 === 0 ? "user" : "assistant", content: msg }));
  input.push({ role: "user", content: example.instruction });
  let tools: Row[] | undefined;
  const tool = example.tool as Row | null | undefined;
  if (tool !== undefined && tool !== null) {
    const [definition, call, result] = [tool.definition as Row, tool.call as Row, tool.return as Row];
    const parameters = definition.parameters as Row;
    tools = [{ type: "function", name: definition.name, description: definition.description, parameters: { type: "object", properties: parameters, required: Object.keys(parameters) }, strict: null }];
    input.push({ type: "function_call", call_id: call.id, name: call.name, arguments: stringifyPython(call.arguments, { spaced: true, ensureAscii: true }) });
    input.push({ type: "function_call_output", call_id: call.id, output: result.content });
  }
  if (example.system !== undefined && example.system !== null) input.unshift({ role: "system", content: example.system });
  return tools ? { input, tools } : { input };
}

/** One benchmark row (`_to_task`, then the benchmark's renaming). */
export function ihevalRow(example: Row, domain: string, task: string, setting: string): Row {
  const params = buildMessages(example);
  return {
    responses_create_params: params,
    id: pyStr(example.id ?? null),
    task,
    domain,
    setting,
    instruction: pyStr(example.instruction ?? ""),
    answer: dumps(example.answer ?? null),
    agent_ref: { type: "responses_api_agents", name: AGENT },
  };
}

/** The rows of an IHEval archive, task by task, each task's settings in path order. */
export function ihevalRows(archive: string, label = archive): Row[] {
  const files = new Map<string, Uint8Array>();
  for (const entry of readZipFiles(archive, (name) => name.endsWith("/input_data.json"))) files.set(entry.name, entry.data);
  const rows: Row[] = [];
  const decoder = new TextDecoder();
  for (const [domain, task] of TASKS) {
    const prefix = `${TOP}/benchmark/${domain}/${task}/`;
    const paths = [...files.keys()].filter((p) => p.startsWith(prefix)).sort(byComponents);
    if (paths.length === 0) throw new GymError("E_INPUT_SCHEMA", `${label} has no input_data.json under benchmark/${domain}/${task}/.`, { hint: "The archive is not IHEval's repository: check the URL, delete the cached archive and prepare again." });
    for (const path of paths) {
      const setting = path.slice(prefix.length, -"/input_data.json".length) || ".";
      let data: unknown;
      try {
        data = parsePythonJson(decoder.decode(files.get(path)!));
      } catch (error) {
        throw new GymError("E_INPUT_JSON", `${label}: ${path} is not JSON (${(error as Error).message}).`, { hint: "Delete the cached archive and prepare again." });
      }
      if (!Array.isArray(data)) throw new GymError("E_INPUT_SCHEMA", `${label}: ${path} should hold a list of examples.`, { hint: "Delete the cached archive and prepare again." });
      for (const example of data as Row[]) rows.push(ihevalRow(example, domain, task, setting));
    }
  }
  return rows;
}

export async function prepare(context: PrepareContext): Promise<string> {
  const url = typeof context.args.url === "string" ? context.args.url : IHEVAL_ZIP;
  const path = join(cacheDir(), "iheval", "IHEval-main.zip");
  if (!existsSync(path)) {
    context.log(`Downloading the IHEval repository from ${url} ...`);
    await downloadFile(url, path, { label: "IHEval-main.zip", log: context.log });
  }
  const rows = ihevalRows(path);
  const count = writePythonJsonl(context.outputPath, rows, false);
  context.log(`IHEval: wrote ${count} Responses-shaped rows -> ${context.outputPath}`);
  return context.outputPath;
}

/**
 * spider2_lite: Spider 2.0-Lite's 135 local (SQLite) tasks as NeMo Gym's benchmarks/spider2_lite/prepare.py writes
 * them (its scripts/prepare_dataset.py `spider2_lite_sqlite_validation.jsonl`): the system prompt, the database's
 * DDL.csv schema and the question; `gold_result` from the gold CSVs, `gold_sql` where the repo has it, and the
 * evaluator's `ignore_order` / `condition_cols`. NeMo Gym `git clone`s xlang-ai/Spider2; here the same files come
 * from the repository's archive through the download layer (resumable, cached, refused offline), and the databases
 * are fetched into the server's `spider2_lite_dir` as its `ensure_spider2_lite()` does.
 * `+prepare_script_args={spider2_lite_dir: …, spider2_repo_url: …, databases_url: …}` point elsewhere.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { downloadFile } from "../../../download/index.ts";
import { GymError } from "../../../errors.ts";
import { stringifyPython } from "../../../metrics/pyjson.ts";
import { writeFileAtomic } from "../../../runtime/files.ts";
import { databaseRoot, ensureDatabases } from "../../resources_servers/_sql/databases.ts";
import { unzip } from "../../../download/zip.ts";
import { SPIDER2_LITE_URL, spider2Source } from "../../resources_servers/spider2_lite/index.ts";
import type { PrepareContext } from "../_prepare.ts";
import { csvRecords, pyCsvRowsAnyNewline } from "../../resources_servers/_nlp/csv.ts";
import { NonFinite, parseValue } from "./python-csv.ts";

export const SPIDER2_REPO_URL = "https://github.com/xlang-ai/Spider2/archive/refs/heads/main.zip";
export const SYSTEM_PROMPT =
  "You are a SQL expert. Given a database schema and a natural language question, generate a SQLite query that answers the question. Return only the SQL query inside a ```sql``` code block.";

/** The files of the Spider2 repository the prepare reads (under `spider2-lite/`). */
const WANTED = [/^spider2-lite\.jsonl$/, /^evaluation_suite\/gold\/spider2lite_eval\.jsonl$/, /^evaluation_suite\/gold\/sql\/[^/]+\.sql$/, /^evaluation_suite\/gold\/exec_result\/[^/]+\.csv$/, /^resource\/databases\/sqlite\/[^/]+\/DDL\.csv$/];

/**
 * `<root>/Spider2/spider2-lite`: the files above, unpacked from the repository's archive (`<root>/Spider2-main.zip`,
 * downloaded once) into a staging folder renamed into place, so the folder is complete or absent.
 */
export async function ensureSpider2Repo(root: string, url: string, log: (line: string) => void): Promise<string> {
  const target = join(root, "Spider2", "spider2-lite");
  if (existsSync(join(target, "spider2-lite.jsonl"))) return target;
  const archive = join(root, "Spider2-main.zip");
  if (!existsSync(archive)) {
    log(`spider2_lite: downloading the Spider2 repository from ${url}`);
    await downloadFile(url, archive, { label: "Spider2 repository", log });
  }
  const staging = join(root, `.unpack-${process.pid}-Spider2`);
  rmSync(staging, { recursive: true, force: true });
  try {
    const written = await unzip(archive, staging, (name) => {
      const inner = name.split("/").slice(1).join("/");
      return inner.startsWith("spider2-lite/") && WANTED.some((re) => re.test(inner.slice("spider2-lite/".length))) ? inner : null;
    });
    if (!existsSync(join(staging, "spider2-lite", "spider2-lite.jsonl"))) {
      throw new GymError("E_INPUT_ENCODING", `spider2_lite: ${archive} holds no <top>/spider2-lite/spider2-lite.jsonl (${written.length} files matched).`, { hint: `Delete ${archive} so that it is downloaded again from ${url}.` });
    }
    rmSync(join(root, "Spider2"), { recursive: true, force: true });
    renameSync(staging, join(root, "Spider2"));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return target;
}

type Json = Record<string, unknown>;
const jsonl = (path: string): Json[] => readFileSync(path, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Json);

/** `_resolve_db_dir`: the database's folder, else the one whose name matches case- and dash-insensitively. */
function dbDir(spider2: string, dbId: string): string {
  const base = join(spider2, "resource", "databases", "sqlite");
  if (existsSync(join(base, dbId))) return join(base, dbId);
  const normalized = dbId.toLowerCase().replaceAll("-", "_");
  const hit = existsSync(base) ? readdirSync(base).sort().find((d) => d.toLowerCase().replaceAll("-", "_") === normalized) : undefined;
  if (hit === undefined) throw new GymError("E_INPUT_NOT_FOUND", `spider2_lite: no database directory found for ${dbId} in ${base}.`, { hint: "Delete the unpacked Spider2 folder so that it is unpacked again from the archive." });
  return join(base, hit);
}

function schemaOf(spider2: string, dbId: string): string {
  return csvRecords(readFileSync(join(dbDir(spider2, dbId), "DDL.csv"), "utf8")).map((row) => row.DDL ?? "").join("\n\n");
}

/** Python's str.strip() (whitespace as str.isspace has it). */
const pyStrip = (s: string) => s.replace(/^[\s\u001c-\u001f\u0085]+|[\s\u001c-\u001f\u0085]+$/g, "");

function goldSql(spider2: string, id: string): string | undefined {
  const path = join(spider2, "evaluation_suite", "gold", "sql", `${id}.sql`);
  return existsSync(path) ? pyStrip(readFileSync(path, "utf8")) : undefined;
}

function goldResult(spider2: string, id: string): unknown[][][] {
  const dir = join(spider2, "evaluation_suite", "gold", "exec_result");
  const read = (path: string) => pyCsvRowsAnyNewline(readFileSync(path, "utf8")).slice(1).map((row) => row.map(parseValue));
  const sets: unknown[][][] = [];
  for (let c = "a".charCodeAt(0); existsSync(join(dir, `${id}_${String.fromCharCode(c)}.csv`)); c++) sets.push(read(join(dir, `${id}_${String.fromCharCode(c)}.csv`)));
  if (!sets.length && existsSync(join(dir, `${id}.csv`))) sets.push(read(join(dir, `${id}.csv`)));
  return sets;
}

/** The validation rows (all local tasks, ordered by the number in their id), each as json.dumps(ensure_ascii=False) writes it. */
export function spider2Lines(spider2: string): string[] {
  const tasks = new Map<string, { db_id: unknown; question: unknown }>();
  for (const d of jsonl(join(spider2, "spider2-lite.jsonl"))) if (String(d.instance_id).startsWith("local")) tasks.set(String(d.instance_id), { db_id: d.db, question: d.question });
  const meta = new Map<string, Json>();
  for (const d of jsonl(join(spider2, "evaluation_suite", "gold", "spider2lite_eval.jsonl"))) if (String(d.instance_id).startsWith("local")) meta.set(String(d.instance_id), d);
  const number = (id: string) => Number(/\d+/.exec(id)?.[0] ?? NaN);
  const ids = [...tasks.keys()].sort((a, b) => number(a) - number(b));
  const schemas = new Map<string, string>();
  return ids.map((id) => {
    const task = tasks.get(id)!;
    const db = String(task.db_id);
    if (!schemas.has(db)) schemas.set(db, schemaOf(spider2, db));
    const result = goldResult(spider2, id);
    if (!result.length) throw new GymError("E_INPUT_SCHEMA", `spider2_lite: task ${id} has no gold result CSVs in ${join(spider2, "evaluation_suite", "gold", "exec_result")}.`, { hint: "NeMo Gym's prepare asserts this too; check that the Spider2 archive is complete." });
    const m = meta.get(id);
    if (!m) throw new GymError("E_INPUT_SCHEMA", `spider2_lite: task ${id} has no entry in spider2lite_eval.jsonl.`, { hint: "NeMo Gym's prepare fails here too (KeyError); check that the Spider2 archive is complete." });
    const row: Json = {
      responses_create_params: { input: [{ role: "system", content: SYSTEM_PROMPT }, { role: "user", content: `<DATABASE_SCHEMA>\n${schemas.get(db)}\n</DATABASE_SCHEMA>\n\n<QUESTION>\n${task.question}\n</QUESTION>` }] },
      instance_id: id,
      db_id: task.db_id,
      question: task.question,
      gold_sql: goldSql(spider2, id),
      gold_result: result.map((set) => set.map((r) => r.map((v) => (v instanceof NonFinite ? `\u0000${v.token}\u0000` : v)))),
      ignore_order: m.ignore_order,
      condition_cols: m.condition_cols ?? [],
    };
    return stringifyPython(row, { spaced: true }).replace(/"\\u0000(NaN|Infinity|-Infinity)\\u0000"/g, "$1");
  });
}

export async function prepare(context: PrepareContext): Promise<string> {
  const root = databaseRoot(String(context.args.spider2_lite_dir ?? "resources_servers/spider2_lite/.spider2_lite"));
  await ensureDatabases(root, spider2Source(String(context.args.databases_url ?? SPIDER2_LITE_URL)), process.env, context.log);
  const lines = spider2Lines(await ensureSpider2Repo(root, String(context.args.spider2_repo_url ?? SPIDER2_REPO_URL), context.log));
  writeFileAtomic(context.outputPath, lines.map((l) => `${l}\n`).join(""));
  context.log(`Wrote ${lines.length} validation tasks to ${context.outputPath}`);
  return context.outputPath;
}

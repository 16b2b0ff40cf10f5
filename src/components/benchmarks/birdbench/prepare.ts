/**
 * BIRD dev (1534 tasks over 11 SQLite databases) for bird_sql: the databases come through the same download and
 * cache as the server's (`bird_sql_dir`); each task gets its database's schema dump as `sql_context`.
 * `+prepare_script_args={bird_sql_dir: …, databases_url: …}` point elsewhere.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GymError } from "../../../errors.ts";
import { openSqlRunner } from "../../../runtime/sql-child.ts";
import { databaseRoot, ensureDatabases } from "../../resources_servers/_sql/databases.ts";
import { schemaDump } from "../../resources_servers/bird_sql/dump.ts";
import { BIRD_DEV_URL, birdSource } from "../../resources_servers/bird_sql/index.ts";
import type { PrepareContext } from "../_prepare.ts";

interface DevEntry {
  question: string;
  SQL: string;
  db_id: string;
  difficulty: string;
}

export async function prepare(context: PrepareContext): Promise<string> {
  const root = databaseRoot(String(context.args.bird_sql_dir ?? "resources_servers/bird_sql/.bird_sql"));
  const dev = await ensureDatabases(root, birdSource(String(context.args.databases_url ?? BIRD_DEV_URL)), process.env, context.log);
  const devJson = join(dev, "dev.json");
  if (!existsSync(devJson)) throw new GymError("E_IO", `Expected BIRD dev.json at ${devJson}.`, { hint: `Delete ${dev} so that it is unpacked again.` });
  const entries = JSON.parse(readFileSync(devJson, "utf8")) as DevEntry[];
  const databases = join(dev, "dev_databases");
  const runner = openSqlRunner({ children: 1 });
  const tables = new Map<string, string>();
  try {
    for (const db of readdirSync(databases).sort()) {
      const file = join(databases, db, `${db}.sqlite`);
      if (!existsSync(file)) continue;
      context.log(`Reading database info from: ${db}`);
      tables.set(db, await schemaDump(runner, file));
    }
  } finally {
    runner.close();
  }
  context.log(`Collected schema dumps for ${tables.size} databases.`);
  const rows = entries.map((entry, id) => {
    const sqlContext = tables.get(entry.db_id);
    if (sqlContext === undefined) throw new GymError("E_INPUT_SCHEMA", `${devJson}: entry ${id} names db_id ${JSON.stringify(entry.db_id)}, which has no ${entry.db_id}/${entry.db_id}.sqlite under ${databases}.`);
    return { question: entry.question, gt_sql: entry.SQL, sql_context: sqlContext, difficulty: entry.difficulty, db_id: entry.db_id, id };
  });
  await context.writeRows(context.outputPath, rows);
  context.log(`Wrote ${rows.length} BIRD dev entries to ${context.outputPath}`);
  return context.outputPath;
}

/** What the SQLite verifiers (bird_sql, spider2_lite) share: their config fields past the data folder, and their state. */
import { availableParallelism } from "node:os";
import type { JsonObject } from "../../../protocol/responses.ts";
import { openSqlRunner, type SqlRunner } from "../../../runtime/sql-child.ts";
import { py } from "../../../servers/resources/index.ts";
import { databaseRoot, type DatabaseSource, ensureDatabases } from "./databases.ts";
import { GoldCache } from "./gold-cache.ts";

export interface SqlServerConfig extends JsonObject {
  max_concurrency: number;
  sql_execution_timeout_s: number;
  max_result_rows: number;
  memory_limit_mb: number;
  databases_url: string;
}

/** The fields after `<server>_dir`, in NeMo Gym's order; `databases_url` defaults to the benchmark's archive. */
export function sqlServerFields(databasesUrl: string) {
  return {
    max_concurrency: py.withDefault(py.int(), () => 32),
    sql_execution_timeout_s: py.withDefault(py.float(), () => 30),
    max_result_rows: py.withDefault(py.int(), () => 1_000_000),
    memory_limit_mb: py.withDefault(py.int(), () => 2048),
    databases_url: py.withDefault(py.str(), () => databasesUrl),
  };
}

export interface SqlServerState {
  runner: SqlRunner;
  gold: GoldCache;
  /** The folder of the databases, fetched on first use; a failed download is tried again by the next call. */
  databases: () => Promise<string>;
}

/** The runner (one child per allowed concurrent query, capped by the cores), the gold cache and the databases, fetched
 * into the configured `<server>_dir` (or its environment override) on first use. */
export function openSqlServerState(config: SqlServerConfig, dataDir: string, source: DatabaseSource, locate: (folder: string) => string = (folder) => folder): SqlServerState {
  let ready: Promise<string> | undefined;
  return {
    gold: new GoldCache(),
    runner: openSqlRunner({ children: Math.max(1, Math.min(config.max_concurrency, availableParallelism())), memoryLimitMb: config.memory_limit_mb }),
    databases() {
      ready ??= ensureDatabases(databaseRoot(dataDir), source).then(locate);
      ready.catch(() => (ready = undefined));
      return ready;
    },
  };
}

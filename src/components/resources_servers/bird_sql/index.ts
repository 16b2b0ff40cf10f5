/**
 * bird_sql (BIRD dev, benchmark birdbench): the model's last ```sql block and the task's `gt_sql` run on the task's
 * SQLite database; reward 1 when the result sets are equal as sets. Queries run in killable child processes
 * (`src/runtime/sql-child.ts`), read-only, with NeMo Gym's timeout and our row and memory caps.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { JsonObject } from "../../../protocol/responses.ts";
import { computePassMajorityMetrics, computeSubsetMetrics, highestKMetrics } from "../../../metrics/pass-k.ts";
import { pyFloat } from "../../../metrics/pyjson.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { outputText } from "../_common/output.ts";
import { type DatabaseSource, hasSqliteFiles, safeDbId, unzipAll } from "../_sql/databases.ts";
import { openSqlServerState, type SqlServerConfig, sqlServerFields, type SqlServerState } from "../_sql/server.ts";
import { executeQuery, failureReason } from "../_sql/execute.ts";
import { resultSetsMatch } from "./compare.ts";
import { extractSql, hasSqlCodeblock } from "./extract.ts";
import { meanTokenMetrics } from "../_common/key-metrics.ts";

export const BIRD_DEV_URL = "https://bird-bench.oss-cn-beijing.aliyuncs.com/dev.zip";

export interface BirdSqlConfig extends SqlServerConfig {
  bird_sql_dir: string;
}

/** `<bird_sql_dir>/dev_20240627/dev_databases`, where each `<db_id>/<db_id>.sqlite` is. */
export function birdDatabasesDir(root: string): string {
  return join(root, "dev_20240627", "dev_databases");
}

/** BIRD dev: dev.zip holds dev_20240627/ with dev.json and dev_databases.zip, which holds dev_databases/<db>/<db>.sqlite. */
export function birdSource(url: string): DatabaseSource {
  return {
    server: "bird_sql",
    configKey: "bird_sql_dir",
    url,
    archive: "dev.zip",
    folder: "dev_20240627",
    prefetch: "gym env prefetch --benchmark birdbench",
    ready: (folder) => hasSqliteFiles(join(folder, "dev_databases"), 1),
    async unpack(archive, staging) {
      await unzipAll(archive, staging);
      const inner = join(staging, "dev_20240627", "dev_databases.zip");
      await unzipAll(inner, join(staging, "dev_20240627"));
      rmSync(inner);
    },
  };
}

const score = (r: JsonObject) => ({ accuracy: pyFloat(Number(r.reward) > 0 ? 1 : 0) });

export default defineResourcesServer<BirdSqlConfig, SqlServerState>({
  name: "bird_sql",
  className: "BirdSqlResourcesServer",
  reverifyMode: "stateless",
  config: {
    fields: {
      bird_sql_dir: py.withDefault(py.str(), () => "resources_servers/bird_sql/.bird_sql"),
      ...sqlServerFields(BIRD_DEV_URL),
    },
  },
  createState: (config) => openSqlServerState(config, config.bird_sql_dir, birdSource(config.databases_url), (folder) => join(folder, "dev_databases")),
  verify: {
    request: {
      fields: { question: py.str(), gt_sql: py.str(), db_id: py.str(), difficulty: py.optional(py.str()), id: py.optional(py.int()) },
      extra: "allow",
    },
    response: ["question", "gt_sql", "db_id", "difficulty", "id", "model_output", "extracted_sql", "had_codeblock", "execution_match", "failure_reason"],
    echoExtra: true,
    async handler(body, { config, state }) {
      const generated = outputText(body.response as JsonObject);
      const extracted = extractSql(generated);
      const hadCodeblock = hasSqlCodeblock(generated);
      const dbId = body.db_id as string;
      const limits = { timeoutSeconds: config.sql_execution_timeout_s, maxRows: config.max_result_rows };
      const database = safeDbId(dbId) ? join(await state.databases(), dbId, `${dbId}.sqlite`) : "";
      const answer = (match: boolean, failure: string, sqlError?: string | null) => ({
        reward: match ? 1 : 0,
        model_output: generated,
        extracted_sql: extracted,
        had_codeblock: hadCodeblock,
        execution_match: match,
        failure_reason: failure,
        // Ours, not NeMo Gym's: why a query gave no rows (SQLite's error, a refusal, a limit).
        ...(sqlError ? { sql_error: sqlError } : {}),
      });
      const gold = database ? await state.gold.get(database, body.gt_sql as string, () => executeQuery(state.runner, database, body.gt_sql as string, limits)) : { ok: false as const, kind: "sql" as const, message: `unsafe db_id ${JSON.stringify(dbId)}` };
      if (!gold.ok) return answer(false, "gold_execution_error", `gold: ${failureReason(gold)}`);
      const pred = await executeQuery(state.runner, database, extracted, limits);
      const failure = hadCodeblock ? "execution_error" : "no_sql_extracted";
      if (!pred.ok) return answer(false, failure, failureReason(pred));
      const match = resultSetsMatch(gold.rows, pred.rows);
      return answer(match, match ? "none" : failure);
    },
  },
  computeMetrics(tasks) {
    const options = { scoreFn: score, answerKey: "extracted_sql" };
    return { ...computePassMajorityMetrics(tasks, options).metrics, ...computeSubsetMetrics(tasks, "difficulty", options) };
  },
  keyMetrics(agentMetrics) {
    const key = meanTokenMetrics(agentMetrics);
    Object.assign(key, highestKMetrics(agentMetrics, "pass@1[avg-of-{k}]", ["accuracy"]));
    Object.assign(key, highestKMetrics(agentMetrics, "pass@{k}", ["accuracy"]));
    const prefixes = new Set(Object.keys(agentMetrics).filter((k) => k.includes("/pass@") && /^[a-z]/.test(k)).map((k) => k.split("/pass@")[0]!));
    for (const prefix of prefixes) Object.assign(key, highestKMetrics(agentMetrics, `${prefix}/pass@1[avg-of-{k}]`, ["accuracy"]));
    return key;
  },
});

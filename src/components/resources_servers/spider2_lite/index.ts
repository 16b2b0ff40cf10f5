/**
 * spider2_lite (Spider 2.0-Lite, its local SQLite tasks): the model's SQL runs on the task's database and its
 * result is compared with `gold_sql`'s result (or the precomputed `gold_result` sets) column by column, as the
 * official evaluator does. Queries run in killable child processes (`src/runtime/sql-child.ts`), read-only.
 */
import { join } from "node:path";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { outputText } from "../_common/output.ts";
import { type DatabaseSource, hasSqliteFiles, safeDbId } from "../_sql/databases.ts";
import { unzip } from "../../../download/zip.ts";
import { openSqlServerState, type SqlServerConfig, sqlServerFields, type SqlServerState } from "../_sql/server.ts";
import { executeQuery, failureReason, type SqlRow, type SqlValue } from "../_sql/execute.ts";
import { compareMultiResultSets } from "./compare.ts";
import { extractSql } from "./extract.ts";

export const SPIDER2_LITE_URL = "https://drive.usercontent.google.com/download?id=1coEVsCZq-Xvj9p2TnhBFoFTsY-UoYGmG&export=download&authuser=0&confirm=t";

export interface Spider2LiteConfig extends SqlServerConfig {
  spider2_lite_dir: string;
}

/** Spider 2.0-Lite's archive: `<db>.sqlite` files (at any depth), unpacked flat into sqlite/. */
export function spider2Source(url: string): DatabaseSource {
  return {
    server: "spider2_lite",
    configKey: "spider2_lite_dir",
    url,
    archive: "spider2_lite_sqlite.zip",
    folder: "sqlite",
    ready: (folder) => hasSqliteFiles(folder, 0),
    async unpack(archive, staging) {
      await unzip(archive, join(staging, "sqlite"), (name) => (name.endsWith(".sqlite") && !name.startsWith("__MACOSX/") ? name.split("/").at(-1)! : null));
    },
  };
}

/** A `gold_result` cell (JSON) as Python's json.loads gives it: ints (bigint), floats, str, None; True is 1. */
function goldValue(v: unknown): SqlValue {
  if (v === null || typeof v === "string") return v;
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : v;
  if (typeof v === "boolean") return v ? 1n : 0n;
  return JSON.stringify(v);
}

export default defineResourcesServer<Spider2LiteConfig, SqlServerState>({
  name: "spider2_lite",
  className: "Spider2LiteResourcesServer",
  config: {
    fields: {
      spider2_lite_dir: py.withDefault(py.str(), () => "resources_servers/spider2_lite/.spider2_lite"),
      ...sqlServerFields(SPIDER2_LITE_URL),
    },
  },
  createState: (config) => openSqlServerState(config, config.spider2_lite_dir, spider2Source(config.databases_url)),
  verify: {
    request: {
      fields: {
        uuid: py.optional(py.any()),
        instance_id: py.optional(py.str()),
        db_id: py.str(),
        question: py.str(),
        gold_sql: py.optional(py.str()),
        gold_result: py.optional(py.list(py.list(py.list(py.any())))),
        ignore_order: py.withDefault(py.bool(), () => true),
        condition_cols: py.optional(py.list(py.any())),
        metadata: py.optional(py.dict()),
      },
      extra: "allow",
    },
    response: ["uuid", "instance_id", "db_id", "question", "model_output", "extracted_sql", "execution_match", "failure_reason", "gold_sql"],
    echoExtra: true,
    async handler(body, { config, state }) {
      const generated = outputText(body.response as JsonObject);
      // NeMo Gym pops these from the echoed request: undefined keys are not written.
      const popped = { gold_result: undefined, ignore_order: undefined, condition_cols: undefined };
      const answer = (extracted: string | null, match: boolean, failure: string, sqlError?: string | null) => ({
        reward: match ? 1 : 0,
        model_output: generated,
        extracted_sql: extracted,
        execution_match: match,
        failure_reason: failure,
        ...popped,
        ...(sqlError ? { sql_error: sqlError } : {}),
      });
      const extracted = extractSql(generated);
      if (!extracted) return answer(null, false, "no_sql_extracted");
      const goldSql = body.gold_sql as string | null;
      const goldResult = body.gold_result as unknown[][][] | null;
      if (!goldSql && !(goldResult && goldResult.length > 0)) throw new Error("verifier_metadata must contain either 'gold_sql' or 'gold_result'");
      const dbId = body.db_id as string;
      if (!safeDbId(dbId)) return answer(extracted, false, "execution_error", `unsafe db_id ${JSON.stringify(dbId)}`);
      const database = join(await state.databases(), `${dbId}.sqlite`);
      const limits = { timeoutSeconds: config.sql_execution_timeout_s, maxRows: config.max_result_rows };
      const ignoreOrder = body.ignore_order as boolean;
      let goldSets: SqlRow[][];
      let conditionCols: unknown;
      if (goldSql) {
        const gold = await state.gold.get(database, goldSql, () => executeQuery(state.runner, database, goldSql, limits));
        if (!gold.ok) return answer(extracted, false, "execution_error", `gold: ${failureReason(gold)}`);
        goldSets = [gold.rows];
        conditionCols = body.condition_cols ?? [];
      } else {
        goldSets = goldResult!.map((set) => set.map((row) => row.map(goldValue)));
        conditionCols = body.condition_cols;
      }
      const pred = await executeQuery(state.runner, database, extracted, limits);
      if (!pred.ok) return answer(extracted, false, "execution_error", failureReason(pred));
      const match = compareMultiResultSets(goldSets, pred.rows, conditionCols, ignoreOrder);
      return answer(extracted, match, match ? "none" : "execution_error");
    },
  },
});

/** One query of a SQL verifier: Python's pre-checks, our read-only rule, then the child-process runner with its limits. */
import type { SqlResult, SqlRunner } from "../../../runtime/sql-child.ts";
import { checkStatement } from "./statement.ts";

export type { SqlResult, SqlRow, SqlValue } from "../../../runtime/sql-child.ts";

export interface QueryLimits {
  timeoutSeconds: number;
  maxRows: number;
}

/** Runs `sql` on `database`; every failure (SQLite's error, a refusal, a limit) is a result with its reason. */
export async function executeQuery(runner: SqlRunner, database: string, sql: string, limits: QueryLimits): Promise<SqlResult> {
  const check = checkStatement(sql);
  if (check.kind === "empty") return { ok: true, rows: [] };
  if (check.kind === "error") return { ok: false, kind: "sql", message: check.message };
  if (check.kind === "refused") return { ok: false, kind: "refused", message: check.message };
  return runner.query({ database, sql, timeoutMs: Math.max(1, Math.round(limits.timeoutSeconds * 1000)), maxRows: limits.maxRows });
}

/** The reason a failed query gives in a verify response (`sql_error`). */
export function failureReason(result: SqlResult): string | null {
  return result.ok ? null : `${result.kind}: ${result.message}`;
}

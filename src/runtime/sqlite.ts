/** SQLite for the runtime in use: `bun:sqlite` under Bun, `node:sqlite` under Deno (and Node ≥ 22.5), behind one small interface. */
/** A prepared statement: positional `?` parameters, rows as plain objects. */
export interface SqliteStatement {
  get(...params: SqliteValue[]): Record<string, unknown> | undefined;
  all(...params: SqliteValue[]): Record<string, unknown>[];
  /** Runs a write; `changes` is the number of rows it touched. */
  run(...params: SqliteValue[]): { changes: number };
}

export type SqliteValue = string | number | bigint | null | Uint8Array;

export interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

declare const Deno: unknown;

/**
 * Opens (creating unless `readonly`) the database at `path`. Errors are the driver's own (a corrupt file
 * surfaces on the first statement that reads it, "file is not a database").
 */
export async function openSqlite(path: string, options: { readonly?: boolean } = {}): Promise<SqliteDatabase> {
  if (typeof Deno === "undefined" && process.versions.bun) {
    const { Database } = await import("bun:sqlite");
    const db = options.readonly ? new Database(path, { readonly: true }) : new Database(path, { create: true });
    return {
      exec: (sql) => void db.exec(sql),
      prepare(sql) {
        const statement = db.prepare(sql);
        return {
          get: (...params) => (statement.get(...(params as never[])) as Record<string, unknown> | null) ?? undefined,
          all: (...params) => statement.all(...(params as never[])) as Record<string, unknown>[],
          run: (...params) => ({ changes: Number(statement.run(...(params as never[])).changes) }),
        };
      },
      close: () => db.close(),
    };
  }
  // Deno and Node: node:sqlite's DatabaseSync has the same shape.
  const specifier = "node:sqlite"; // not a literal: tsc has no types for it under bun-types
  const { DatabaseSync } = (await import(specifier)) as {
    DatabaseSync: new (path: string, options?: { readOnly?: boolean }) => {
      exec(sql: string): void;
      prepare(sql: string): { get(...p: unknown[]): unknown; all(...p: unknown[]): unknown[]; run(...p: unknown[]): { changes: number | bigint } };
      close(): void;
    };
  };
  const db = new DatabaseSync(path, options.readonly ? { readOnly: true } : {});
  return {
    exec: (sql) => db.exec(sql),
    prepare(sql) {
      const statement = db.prepare(sql);
      return {
        get: (...params) => (statement.get(...params) as Record<string, unknown> | undefined) ?? undefined,
        all: (...params) => statement.all(...params) as Record<string, unknown>[],
        run: (...params) => ({ changes: Number(statement.run(...params).changes) }),
      };
    },
    close: () => db.close(),
  };
}

/**
 * SQLite queries in child processes of this program, each killed at its deadline: a model's SQL is hostile (an
 * endless recursive CTE never returns from sqlite3_step, and no JS timer can interrupt it in-process).
 *
 * A child is this same program run as its runtime's interpreter on `sqlChildMain`'s source (`bun -e`, which a
 * compiled Bun binary does under BUN_BE_BUN=1; `deno eval`; `node -e`), so it needs no file on disk. It opens
 * databases read-only with `PRAGMA query_only`, runs one prepared statement that SQLite itself calls read-only,
 * stops at a row cap, and sends the rows back as one length-prefixed `node:v8` frame (bigint, Uint8Array and
 * doubles survive exactly). The parent kills a child at the deadline or when its memory passes the cap, and
 * starts a fresh one for the next query.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { deserialize } from "node:v8";

declare const Deno: { execPath(): string } | undefined;

/** One SQLite value as Python's sqlite3 returns it: INTEGER → bigint, REAL → number, TEXT, BLOB, NULL. */
export type SqlValue = null | bigint | number | string | Uint8Array;
export type SqlRow = SqlValue[];

/** Why a query gave no rows. `sql`: SQLite (or the driver) raised; the others are this runner's limits. */
export type SqlFailureKind = "sql" | "refused" | "timeout" | "memory" | "rows" | "crashed";

export type SqlResult = { ok: true; rows: SqlRow[] } | { ok: false; kind: SqlFailureKind; message: string };

export interface SqlQuery {
  /** The SQLite file, opened read-only. */
  database: string;
  sql: string;
  /** Wall-clock limit; the child is killed when it passes. */
  timeoutMs: number;
  /** More rows than this is a failure (`rows`). */
  maxRows: number;
}

export interface SqlRunnerOptions {
  /** Child processes at most (queries beyond wait); default: the number of cores. */
  children?: number;
  /** A child whose resident memory passes this is killed (`memory`); default 2048 MiB. */
  memoryLimitMb?: number;
}

/**
 * The child's whole program. It must stay self-contained (no imports from outside, no outer names): its source
 * text is what the child runs.
 */
async function sqlChildMain(): Promise<void> {
  const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
  const fs = await import("node:fs");
  const v8 = await import("node:v8");
  const readline = await import("node:readline");
  const driver: any = await import(isBun ? "bun:sqlite" : "node:sqlite");
  // A watchdog thread: a query stuck in SQLite cannot notice that its parent is gone (killed, say), so a worker
  // checks every second and kills this process when the parent has died.
  const parent = process.ppid;
  const watchdog = `setInterval(() => { let alive = process.ppid === ${parent}; try { process.kill(${parent}, 0); } catch { alive = false; } if (!alive) process.kill(process.pid, "SIGKILL"); }, 1000);`;
  try {
    new Worker(URL.createObjectURL(new Blob([watchdog], { type: "application/javascript" })), { type: "module" } as WorkerOptions);
  } catch {
    // no workers in this runtime: the parent's exit hook and deadline still apply
  }
  const databases = new Map<string, any>();
  const openDb = (path: string) => {
    let db = databases.get(path);
    if (db) return db;
    if (!fs.existsSync(path)) throw new Error(`unable to open database file: ${path} does not exist`);
    db = isBun ? new driver.Database(path, { readonly: true, safeIntegers: true }) : new driver.DatabaseSync(path, { readOnly: true, readBigInts: true, returnArrays: true, enableDoubleQuotedStringLiterals: true });
    db.exec("PRAGMA query_only = ON");
    if (databases.size >= 16) databases.delete(databases.keys().next().value!);
    databases.set(path, db);
    return db;
  };
  const run = (req: { database: string; sql: string; maxRows: number }) => {
    const db = openDb(req.database);
    const statement = db.prepare(req.sql);
    const readonly = isBun ? statement.readonly : true;
    if (!readonly) return { ok: false, kind: "refused", message: "the statement would change the database; only read queries are run" };
    let rows: unknown[];
    if (isBun) rows = statement.values();
    else {
      rows = [];
      for (const row of statement.iterate()) {
        rows.push(row);
        if (rows.length > req.maxRows) break;
      }
    }
    if (rows.length > req.maxRows) return { ok: false, kind: "rows", message: `the result has more than ${req.maxRows} rows` };
    return { ok: true, rows };
  };
  const send = (value: unknown) => {
    let body: Uint8Array;
    try {
      body = v8.serialize(value);
    } catch (error) {
      body = v8.serialize({ ok: false, kind: "sql", message: String((error as Error)?.message ?? error) });
    }
    const head = new Uint8Array(4);
    new DataView(head.buffer).setUint32(0, body.length, true);
    fs.writeSync(1, head);
    let offset = 0;
    while (offset < body.length) offset += fs.writeSync(1, body, offset);
  };
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    let result: unknown;
    try {
      result = run(JSON.parse(line));
    } catch (error) {
      result = { ok: false, kind: "sql", message: String((error as Error)?.message ?? error) };
    }
    send(result);
  }
}

/** argv and env that start a child of this program on `source`. */
function childCommand(source: string): { argv: string[]; env: NodeJS.ProcessEnv } {
  if (typeof Deno !== "undefined") return { argv: [Deno.execPath(), "eval", source], env: process.env };
  if (process.versions.bun) return { argv: [process.execPath, "-e", source], env: { ...process.env, BUN_BE_BUN: "1" } };
  return { argv: [process.execPath, "--no-warnings", "-e", source], env: process.env };
}

const CHILD_SOURCE = `(${sqlChildMain.toString()})().catch((e) => { console.error(e); process.exit(70); });`;

interface Pending {
  resolve(result: SqlResult): void;
  timer: ReturnType<typeof setTimeout>;
}

/** One child process: one query at a time; killed (and not reused) when a query passes a limit. */
class SqlChild {
  private readonly proc: ChildProcess;
  private buffer = new Uint8Array(0);
  private pending: Pending | undefined;
  private watch: ReturnType<typeof setInterval> | undefined;
  private stderr = "";
  dead = false;

  constructor(private readonly memoryLimitBytes: number) {
    const { argv, env } = childCommand(CHILD_SOURCE);
    this.proc = spawn(argv[0]!, argv.slice(1), { stdio: ["pipe", "pipe", "pipe"], env });
    this.proc.unref();
    for (const stream of [this.proc.stdout, this.proc.stderr, this.proc.stdin] as unknown as { unref?: () => void }[]) stream?.unref?.();
    this.proc.stdout!.on("data", (chunk: Uint8Array) => this.onData(chunk));
    this.proc.stderr!.on("data", (chunk: Uint8Array) => void (this.stderr = (this.stderr + new TextDecoder().decode(chunk)).slice(-2000)));
    this.proc.stdin!.on("error", () => {});
    this.proc.on("error", (error) => this.fail("crashed", `could not start the SQL child process: ${error.message}`));
    this.proc.on("exit", (code, signal) => {
      this.dead = true;
      this.fail("crashed", `the SQL child process ended (${signal ?? `exit ${code}`})${this.stderr ? `: ${this.stderr.trim()}` : ""}`);
    });
  }

  get busy(): boolean {
    return this.pending !== undefined;
  }

  run(query: SqlQuery): Promise<SqlResult> {
    return new Promise<SqlResult>((resolve) => {
      const timer = setTimeout(() => this.kill("timeout", `the query ran past its ${query.timeoutMs / 1000} s deadline and was killed`), query.timeoutMs);
      this.pending = { resolve, timer };
      this.watchMemory();
      this.proc.stdin!.write(`${JSON.stringify({ database: query.database, sql: query.sql, maxRows: query.maxRows })}\n`);
    });
  }

  kill(kind: SqlFailureKind, message: string): void {
    this.dead = true;
    this.proc.kill("SIGKILL");
    this.fail(kind, message);
  }

  private watchMemory(): void {
    if (this.proc.pid === undefined) return;
    const statusFile = `/proc/${this.proc.pid}/status`;
    this.watch = setInterval(() => {
      let rssKb: number;
      try {
        rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(statusFile, "latin1"))?.[1] ?? 0);
      } catch {
        return clearInterval(this.watch); // no /proc here: only the deadline applies
      }
      if (rssKb * 1024 > this.memoryLimitBytes) this.kill("memory", `the query used more than ${Math.round(this.memoryLimitBytes / 2 ** 20)} MiB and was killed`);
    }, 25);
    (this.watch as { unref?: () => void }).unref?.();
  }

  private settle(result: SqlResult): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    clearTimeout(pending.timer);
    clearInterval(this.watch);
    pending.resolve(result);
  }

  private fail(kind: SqlFailureKind, message: string): void {
    this.settle({ ok: false, kind, message });
  }

  private onData(chunk: Uint8Array): void {
    const joined = new Uint8Array(this.buffer.length + chunk.length);
    joined.set(this.buffer);
    joined.set(chunk, this.buffer.length);
    this.buffer = joined;
    while (this.buffer.length >= 4) {
      const size = new DataView(this.buffer.buffer, this.buffer.byteOffset, 4).getUint32(0, true);
      if (this.buffer.length < 4 + size) return;
      const frame = this.buffer.subarray(4, 4 + size);
      this.buffer = this.buffer.slice(4 + size);
      this.settle(deserialize(frame) as SqlResult);
    }
  }
}

/** A pool of SQL child processes. `query` never throws: every failure is a result with its reason. */
export class SqlRunner {
  private readonly size: number;
  private readonly memoryLimitBytes: number;
  private readonly idle: SqlChild[] = [];
  private readonly all = new Set<SqlChild>();
  private readonly waiting: (() => void)[] = [];
  private live = 0;

  constructor(options: SqlRunnerOptions = {}) {
    this.size = Math.max(1, options.children ?? availableParallelism());
    this.memoryLimitBytes = (options.memoryLimitMb ?? 2048) * 2 ** 20;
  }

  async query(query: SqlQuery): Promise<SqlResult> {
    while (this.live >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.live++;
    let child: SqlChild | undefined;
    try {
      while ((child = this.idle.pop()) && child.dead) this.all.delete(child);
      if (!child) {
        child = new SqlChild(this.memoryLimitBytes);
        this.all.add(child);
      }
      const result = await child.run(query);
      if (child.dead) this.all.delete(child);
      else this.idle.push(child);
      return result;
    } finally {
      this.live--;
      this.waiting.shift()?.();
    }
  }

  /** Ends every child (idle or busy). */
  close(): void {
    for (const child of this.all) if (!child.dead) child.kill("crashed", "the SQL runner was closed");
    this.all.clear();
    this.idle.length = 0;
  }
}

const runners = new Set<SqlRunner>();
let exitHook = false;

/** A runner whose children are ended when this process exits (a killed child cannot outlive a finished run). */
export function openSqlRunner(options: SqlRunnerOptions = {}): SqlRunner {
  const runner = new SqlRunner(options);
  runners.add(runner);
  if (!exitHook) {
    exitHook = true;
    process.once("exit", () => {
      for (const r of runners) r.close();
    });
  }
  return runner;
}

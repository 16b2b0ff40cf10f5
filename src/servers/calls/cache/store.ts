/** The response store: one SQLite file in WAL mode, shared by every gym process; any database failure turns it off with one warning. */
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { cacheDir } from "../../../download/cache.ts";
import { openSqlite, type SqliteDatabase, type SqliteStatement } from "../../../runtime/sqlite.ts";

/** One stored answer, as written. */
export interface StoredResponse {
  key: string;
  model: string;
  baseUrl: string;
  path: string;
  account: string;
  createdAt: number;
  expiresAt: number;
  body: string;
}

/** Per model and endpoint: how many answers are kept and their bytes. */
export interface StoreSummary {
  model: string;
  base_url: string;
  entries: number;
  bytes: number;
  expired: number;
  oldest: string | null;
  newest: string | null;
}

/** `<cache root>/responses.sqlite` (the cache root is the download cache's). */
export function responseStorePath(env: Record<string, string | undefined> = process.env): string {
  return join(cacheDir(env), "responses.sqlite");
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS responses (
  key TEXT PRIMARY KEY, model TEXT NOT NULL, base_url TEXT NOT NULL, path TEXT NOT NULL, account TEXT NOT NULL,
  created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, body TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS responses_expires ON responses(expires_at);
CREATE INDEX IF NOT EXISTS responses_model ON responses(model);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

export class ResponseStore {
  readonly path: string;
  private readonly db: SqliteDatabase;
  private readonly warn: (message: string) => void;
  private broken = false;
  private readonly getStatement: SqliteStatement;
  private readonly putStatement: SqliteStatement;
  /** Answers not committed yet: written together, in one transaction, at the end of the event-loop turn. */
  private readonly pending = new Map<string, StoredResponse>();
  private flushScheduled = false;
  private readonly flushOnExit = () => this.flush();
  /** The HMAC key of account fingerprints: random, made once per store. */
  readonly secret: string;

  private constructor(path: string, db: SqliteDatabase, warn: (message: string) => void) {
    this.path = path;
    this.db = db;
    this.warn = warn;
    db.prepare("INSERT OR IGNORE INTO meta (name, value) VALUES ('fingerprint_secret', ?)").run(randomBytes(32).toString("hex"));
    this.secret = String(db.prepare("SELECT value FROM meta WHERE name = 'fingerprint_secret'").get()?.value);
    this.getStatement = db.prepare("SELECT body FROM responses WHERE key = ? AND expires_at > ? AND created_at > ?");
    this.putStatement = db.prepare("INSERT OR REPLACE INTO responses (key, model, base_url, path, account, created_at, expires_at, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    process.once("exit", this.flushOnExit);
  }

  /**
   * Opens (creating) the store; a database that cannot be opened, is not SQLite, or stays locked is
   * reported once through `warn` and gives undefined: the run goes on without a cache.
   */
  static async open(path: string, warn: (message: string) => void, options: { busyTimeoutMs?: number } = {}): Promise<ResponseStore | undefined> {
    let db: SqliteDatabase | undefined;
    try {
      mkdirSync(dirname(path), { recursive: true });
      db = await openSqlite(path);
      // Other gym processes (Slurm shards on one node, a run and a reverify) write the same file: wait for their locks.
      db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");
      db.exec(SCHEMA);
      return new ResponseStore(path, db, warn);
    } catch (error) {
      try {
        db?.close();
      } catch {}
      warn(`the response cache at ${path} cannot be used (${(error as Error)?.message ?? error}); continuing without a cache. Remove the file (gym cache clear --yes) to start a new one.`);
      return undefined;
    }
  }

  /** The answer stored under `key`, if it has not expired and is younger than `maxAgeMs`. */
  get(key: string, now: number, maxAgeMs: number): string | undefined {
    if (this.broken) return undefined;
    const pending = this.pending.get(key);
    if (pending) return pending.expiresAt > now && pending.createdAt > now - maxAgeMs ? pending.body : undefined;
    try {
      const row = this.getStatement.get(key, now, now - maxAgeMs);
      return row === undefined ? undefined : String(row.body);
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  /**
   * Keeps an answer (the newest write wins: both are answers to the same request). Answers are committed in
   * batches at the end of the event-loop turn (one commit costs more than a hundred rows); a crash before
   * that loses only those answers, which are then simply asked for again.
   */
  put(entry: StoredResponse): void {
    if (this.broken) return;
    this.pending.set(entry.key, entry);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setTimeout(() => this.flush(), 0);
  }

  /** Commits the pending answers now. */
  flush(): void {
    this.flushScheduled = false;
    if (this.broken || this.pending.size === 0) return;
    const entries = [...this.pending.values()];
    this.pending.clear();
    try {
      this.db.exec("BEGIN IMMEDIATE");
      try {
        for (const e of entries) this.putStatement.run(e.key, e.model, e.baseUrl, e.path, e.account, e.createdAt, e.expiresAt, e.body);
        this.db.exec("COMMIT");
      } catch (error) {
        this.db.exec("ROLLBACK");
        throw error;
      }
    } catch (error) {
      this.fail(error);
    }
  }

  /** Entries per model and endpoint, largest first. */
  summary(now = Date.now()): StoreSummary[] {
    this.flush();
    const rows = this.db
      .prepare(
        `SELECT model, base_url, COUNT(*) AS entries, SUM(LENGTH(CAST(body AS BLOB))) AS bytes, SUM(expires_at <= ?) AS expired,
           MIN(created_at) AS oldest, MAX(created_at) AS newest FROM responses GROUP BY model, base_url ORDER BY entries DESC, model`,
      )
      .all(now);
    return rows.map((r) => ({
      model: String(r.model),
      base_url: String(r.base_url),
      entries: Number(r.entries),
      bytes: Number(r.bytes ?? 0),
      expired: Number(r.expired ?? 0),
      oldest: r.oldest == null ? null : new Date(Number(r.oldest)).toISOString(),
      newest: r.newest == null ? null : new Date(Number(r.newest)).toISOString(),
    }));
  }

  /** Removes expired entries, and with `olderThanMs` every entry created longer ago than that; returns how many. */
  prune(now: number, olderThanMs?: number): number {
    this.flush();
    const removed = this.db.prepare("DELETE FROM responses WHERE expires_at <= ? OR created_at <= ?").run(now, olderThanMs === undefined ? -1 : now - olderThanMs).changes;
    this.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    return removed;
  }

  /** Removes every entry (or those of one model); returns how many. */
  clear(model?: string): number {
    this.flush();
    const removed = model === undefined ? this.db.prepare("DELETE FROM responses").run().changes : this.db.prepare("DELETE FROM responses WHERE model = ?").run(model).changes;
    if (model === undefined) this.db.exec("VACUUM");
    this.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    return removed;
  }

  close(): void {
    this.flush();
    process.off("exit", this.flushOnExit);
    try {
      this.db.close();
    } catch {}
  }

  private fail(error: unknown): void {
    this.broken = true;
    this.warn(`the response cache at ${this.path} failed (${(error as Error)?.message ?? error}); continuing without a cache for the rest of this run.`);
  }
}

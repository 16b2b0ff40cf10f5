/**
 * The schema dump birdbench puts in each prompt (`sql_context`): Python's `Connection.iterdump()` of the database
 * (CREATE statements and one `INSERT INTO "t" VALUES(…)` per row, quoted by SQLite's quote()), newlines inside an
 * INSERT turned into spaces, runs of spaces collapsed, then each run of INSERT lines cut to its first 10 followed
 * by a blank line and `...`, and INSERTs with more than 10 tuples collapsed. Only the first 11 rows of a table are
 * read: the cut gives the same text. Values are quoted as SQLite 3.40's quote() does (REAL with 15 significant
 * digits, or %.20e when those do not round-trip), the SQLite NeMo Gym's published prompts were dumped with; newer
 * SQLite (and Bun's) prints 17 digits.
 */
import { pyCompile, pyFinditer } from "../_python/re.ts";
import type { SqlRunner, SqlValue } from "../../../runtime/sql-child.ts";

const INSERT_CHAIN = pyCompile("((INSERT.*$\\n){10})((INSERT.*\\n)*)", { multiline: true });
const MANY_VALUES = pyCompile("(?:VALUES )(((\\([^)]*)\\)[,;]\\s*)){10}(.*)(?:;)", { multiline: true });

/** SQLite's exponent: a sign and at least two digits. */
const exponent = (e: number) => `e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;

/** SQLite's `%!.15g`: 15 significant digits, trailing zeros dropped but one digit kept after the point. */
function g15(x: number): string {
  const [mantissa, expText] = x.toExponential(14).split("e") as [string, string];
  const e = Number(expText);
  const trim = (s: string) => (s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, ".0") : `${s}.0`);
  if (e < -4 || e >= 15) return `${trim(mantissa)}${exponent(e)}`;
  return trim(x.toFixed(Math.max(0, 14 - e)));
}

/** SQLite 3.40's quote() of one value. */
export function quote(v: SqlValue): string {
  if (v === null) return "NULL";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return v > 0 ? "Inf" : "-Inf";
    const short = g15(v === 0 ? 0 : v);
    if (Number(short) === v) return short;
    const [mantissa, e] = v.toExponential(20).split("e") as [string, string];
    return `${mantissa}${exponent(Number(e))}`;
  }
  if (typeof v === "string") return `'${v.replace(/'/g, "''")}'`;
  return `X'${Buffer.from(v).toString("hex").toUpperCase()}'`;
}

async function rows(runner: SqlRunner, database: string, sql: string): Promise<unknown[][]> {
  const result = await runner.query({ database, sql, timeoutMs: 600_000, maxRows: 10_000_000 });
  if (!result.ok) throw new Error(`reading ${database} failed: ${result.message} (${sql.slice(0, 80)})`);
  return result.rows;
}

/** `iterdump()`'s statements, each table's rows limited to `rowLimit`. */
async function* iterdump(runner: SqlRunner, database: string, rowLimit: number): AsyncGenerator<string> {
  yield "BEGIN TRANSACTION;";
  const tables = await rows(runner, database, `SELECT "name", "type", "sql" FROM "sqlite_master" WHERE "sql" NOT NULL AND "type" == 'table' ORDER BY "name"`);
  let sequence: string[] = [];
  let writableSchema = false;
  for (const [name, , sql] of tables as [string, string, string][]) {
    if (name === "sqlite_sequence") {
      const seq = await rows(runner, database, 'SELECT * FROM "sqlite_sequence";');
      sequence = ['DELETE FROM "sqlite_sequence"', ...seq.map((r) => `INSERT INTO "sqlite_sequence" VALUES('${r[0]}',${r[1]})`)];
      continue;
    } else if (name === "sqlite_stat1") yield 'ANALYZE "sqlite_master";';
    else if (name.startsWith("sqlite_")) continue;
    else if (sql.startsWith("CREATE VIRTUAL TABLE")) {
      if (!writableSchema) {
        writableSchema = true;
        yield "PRAGMA writable_schema=ON;";
      }
      yield `INSERT INTO sqlite_master(type,name,tbl_name,rootpage,sql)VALUES('table','${name.replace(/'/g, "''")}','${name.replace(/'/g, "''")}',0,'${sql.replace(/'/g, "''")}');`;
    } else yield `${sql};`;
    const ident = name.replace(/"/g, '""');
    const columns = (await rows(runner, database, `PRAGMA table_info("${ident}")`)).map((c) => String(c[1]));
    const selected = columns.map((c) => `"${c.replace(/"/g, '""')}"`).join(",");
    const values = await rows(runner, database, `SELECT ${selected || "NULL"} FROM "${ident}" LIMIT ${rowLimit}`);
    for (const row of values) yield `INSERT INTO "${ident}" VALUES(${(row as SqlValue[]).map(quote).join(",")});`;
  }
  const others = await rows(runner, database, `SELECT "name", "type", "sql" FROM "sqlite_master" WHERE "sql" NOT NULL AND "type" IN ('index', 'trigger', 'view')`);
  for (const [, , sql] of others) yield `${sql};`;
  if (writableSchema) yield "PRAGMA writable_schema=OFF;";
  for (const row of sequence) yield `${row};`;
  yield "COMMIT;";
}

/** birdbench's `sql_context` for one database file. */
export async function schemaDump(runner: SqlRunner, database: string): Promise<string> {
  let text = "";
  for await (let line of iterdump(runner, database, 11)) {
    if (line.startsWith("INSERT")) line = line.replace(/\n/g, " ");
    text += `${line.replace(/ +/g, " ")}\n`;
  }
  let cut = "";
  let last = 0;
  for (const m of pyFinditer(INSERT_CHAIN, text)) {
    cut += `${text.slice(last, m.index)}${m[1]}\n...\n`;
    last = m.index + m[0].length;
  }
  text = cut + text.slice(last);
  let collapsed = "";
  last = 0;
  for (const m of pyFinditer(MANY_VALUES, text)) {
    collapsed += `${text.slice(last, m.index)}...`;
    last = m.index + m[0].length;
  }
  return collapsed + text.slice(last);
}

/**
 * SQL verifications per second: bird_sql's /verify (extraction, gold and predicted SQL each in a child process
 * with its deadline, set comparison; a task's gold result is cached) on the published rollouts and the sample
 * database of its fixtures, and the child runner alone (gold and predicted SQL each time), beside a bare loop over the same SQLite (bun:sqlite in this process, no child, no limits) and Python's sqlite3 loop
 * (what NeMo Gym does per verification). Printed, never asserted.
 *
 *   bun scripts/bench/sql.ts [verifications=2000] [in-flight=16]
 */
import { Database } from "bun:sqlite";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promptKey, readJsonlFile } from "../../src/components/resources_servers/_common/testing.ts";
import { outputText } from "../../src/components/resources_servers/_common/output.ts";
import { extractSql } from "../../src/components/resources_servers/bird_sql/extract.ts";
import createBirdSql, { birdDatabasesDir } from "../../src/components/resources_servers/bird_sql/index.ts";
import { resultSetsMatch } from "../../src/components/resources_servers/bird_sql/compare.ts";
import { executeQuery } from "../../src/components/resources_servers/_sql/execute.ts";
import { openSqlRunner } from "../../src/runtime/sql-child.ts";

const n = Number(process.argv[2] ?? 2000);
const inFlight = Number(process.argv[3] ?? 16);
const server = join(import.meta.dir, "..", "..", "src", "components", "resources_servers", "bird_sql");
const work = mkdtempSync(join(tmpdir(), "gym-bench-sql-"));
const dbDir = join(birdDatabasesDir(work), "california_schools");
mkdirSync(dbDir, { recursive: true });
const dbFile = join(dbDir, "california_schools.sqlite");
copyFileSync(join(server, "_fixtures", "sample.sqlite"), dbFile);

const tasks = readJsonlFile(server, "data/example.jsonl");
const byPrompt = new Map(tasks.map((t) => [promptKey(t.responses_create_params as any), t]));
const bodies = readJsonlFile(server, "data/example_rollouts.jsonl").map((r) => ({ ...byPrompt.get(promptKey(r.responses_create_params as any))!, response: r.response }) as Record<string, unknown>);
const pairs = bodies.map((b) => [b.gt_sql as string, extractSql(outputText(b.response as any))] as [string, string]);

// gym: the resources server, in process, `inFlight` verifications at once.
const app = createBirdSql({ bird_sql_dir: work });
const texts = bodies.map((b) => JSON.stringify(b));
const verify = async (i: number) => (await (await app.request("http://localhost/verify", { method: "POST", body: texts[i % texts.length] })).json()) as { reward: number };
await Promise.all(bodies.map((_, i) => verify(i))); // children started
let next = 0;
let matches = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: inFlight }, async () => {
    while (next < n) {
      const reply = await verify(next++);
      matches += reply.reward;
    }
  }),
);
const gymSeconds = (performance.now() - started) / 1000;

// The same two queries per verification through the child runner alone (no server, no gold cache).
const runner = openSqlRunner();
const limits = { timeoutSeconds: 30, maxRows: 1_000_000 };
next = 0;
let runnerMatches = 0;
const runnerStart = performance.now();
await Promise.all(
  Array.from({ length: inFlight }, async () => {
    while (next < n) {
      const [gold, pred] = pairs[next++ % pairs.length]!;
      const g = await executeQuery(runner, dbFile, gold, limits);
      const p = g.ok ? await executeQuery(runner, dbFile, pred, limits) : g;
      runnerMatches += Number(g.ok && p.ok && resultSetsMatch(g.rows, p.rows));
    }
  }),
);
const runnerSeconds = (performance.now() - runnerStart) / 1000;
runner.close();

// Bare loop: the same queries on the same file, bun:sqlite in this process (no deadline, no isolation).
const db = new Database(dbFile, { readonly: true, safeIntegers: true });
const rowSet = (rows: unknown[][]) => new Set(rows.map((r) => JSON.stringify(r, (_, v) => (typeof v === "bigint" ? `${v}` : v))));
let bareMatches = 0;
const bareStart = performance.now();
for (let i = 0; i < n; i++) {
  const [gold, pred] = pairs[i % pairs.length]!;
  try {
    const g = rowSet(db.prepare(gold).values() as unknown[][]);
    const p = rowSet(db.prepare(pred).values() as unknown[][]);
    bareMatches += Number(g.size === p.size && [...p].every((k) => g.has(k)));
  } catch {}
}
const bareSeconds = (performance.now() - bareStart) / 1000;

const line = (name: string, count: number, seconds: number) => `${name.padEnd(44)} ${(count / seconds).toFixed(0).padStart(7)} verifications/s  (${count} in ${seconds.toFixed(2)} s)`;
console.log(`${n} verifications of the 5 published bird_sql rollouts on the sample database (${pairs.length} query pairs)`);
console.log(line(`gym bird_sql /verify (${inFlight} in flight; gold cached)`, n, gymSeconds));
console.log(line(`gym SQL runner: gold + pred in children, no cache`, n, runnerSeconds));
console.log(line("bare loop, bun:sqlite in-process", n, bareSeconds));
console.log(`ratio: gym /verify at ${((bareSeconds / gymSeconds) * 100).toFixed(0)}%, the runner alone at ${((bareSeconds / runnerSeconds) * 100).toFixed(0)}% of the bare loop's rate; matches ${matches} / ${runnerMatches} / ${bareMatches}`);

const pairsFile = join(work, "pairs.json");
writeFileSync(pairsFile, JSON.stringify(pairs));
const py = spawnSync("python3", [join(import.meta.dir, "_sql_python_loop.py"), dbFile, pairsFile, String(n)], { encoding: "utf8" });
if (py.status !== 0) console.log(`skip: the Python sqlite3 loop did not run (${py.error?.message ?? py.stderr.trim().split("\n").at(-1)})`);
else {
  const r = JSON.parse(py.stdout.trim()) as { verifications: number; seconds: number; matches: number };
  console.log(line("Python sqlite3 loop (NeMo Gym's per-query connect)", r.verifications, r.seconds));
  console.log(`ratio: gym ${(r.seconds / gymSeconds).toFixed(1)}× the Python loop's rate; same rewards: ${r.matches === matches}`);
}
rmSync(work, { recursive: true, force: true });
process.exit(0);

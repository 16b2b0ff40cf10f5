/**
 * The runs `gym view` shows: rollouts files found under the paths given (folders searched recursively, sidecars
 * and files whose real path leaves those paths skipped), each read through the row index, its sample columns
 * filled in the background and extended while the run is still writing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { GymError } from "../errors.ts";
import { openRowIndex, readRowText, readRowTexts, refreshRowIndex, type RowIndex } from "../jsonl/row-index.ts";
import { isCompanionFile, runPaths } from "../outputs/paths.ts";
import { collectGarbage } from "../runtime/gc.ts";
import { parseNonFinite } from "../jsonl/json-file.ts";
import { ColumnsBuilder, parseRow, rolloutKey, VERDICTS, type SampleColumns } from "./columns.ts";

/** A run still written to within this long is shown as live. */
const LIVE_MS = 15_000;

export interface RunSummary {
  id: string;
  name: string;
  path: string;
  agent: string;
  model: string;
  rollouts: number;
  indexed: number;
  key_metrics: Record<string, number>;
  health: Record<string, number>;
  failures: number;
  tokens: number | null;
  cost: number | null;
  started: string | null;
  finished: string | null;
  live: boolean;
  /** "rollouts", or "failures" for a run's `<stem>_failures.jsonl` (its failed attempts), listed after the runs. */
  kind: "rollouts" | "failures";
  /** For a failures entry: the id of its run; for a run: the id of its failures entry, if any. */
  related: string | null;
}

/** One rollouts file and what is known about it so far. */
export class Run {
  index: RowIndex | undefined;
  private builder = new ColumnsBuilder();
  private verdicts = new Map<string, number>();
  private verdictsTime = -1;
  private filling: Promise<void> | undefined;
  private refreshing: Promise<void> | undefined;

  /** The other side of a run and its failures file (set by findRuns). */
  related: Run | undefined;

  constructor(readonly id: string, readonly file: string, readonly name: string, private readonly cacheDir: string | undefined, readonly kind: "rollouts" | "failures" = "rollouts") {}

  /** Brings the index up to date (cheap when the file did not change) and keeps the columns filling. */
  async refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      this.index = this.index ? await refreshRowIndex(this.index, { cacheDir: this.cacheDir }) : await openRowIndex(this.file, { cacheDir: this.cacheDir });
      // Rows already read that changed (the file was rewritten), or verdicts written since (the health check
      // runs at the end of a run): read the rows again.
      const verdictsFile = runPaths(this.file).rolloutVerdicts;
      const verdictsTime = fs.statSync(verdictsFile, { throwIfNoEntry: false })?.mtimeMs ?? 0;
      if (this.index.reused < this.builder.count || verdictsTime !== this.verdictsTime) {
        this.verdicts = readVerdicts(verdictsFile);
        this.verdictsTime = verdictsTime;
        this.builder = new ColumnsBuilder(this.index.count);
      }
      this.filling ??= this.fill().finally(() => (this.filling = undefined));
    })().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /** Resolves when every indexed row is in the columns. */
  async complete(): Promise<void> {
    await this.refresh();
    while (this.filling) await this.filling;
  }

  /** Resolves once the first `n` rows (or all there are) are in the columns. */
  async rowsRead(n: number): Promise<void> {
    await this.refresh();
    while (this.builder.count < Math.min(n, this.index!.count) && this.filling) await new Promise((resolve) => setTimeout(resolve, 2));
  }

  /** Parses the rows past the columns' end, a batch at a time, so requests are answered meanwhile. */
  private async fill(): Promise<void> {
    let parsedBytes = 0;
    for (;;) {
      const index = this.index!;
      const start = this.builder.count;
      if (start >= index.count) return;
      const end = Math.min(index.count, start + 500);
      const builder = this.builder;
      // (Synchronous: no refresh can replace the builder or the index within a batch.)
      for (const { i, text } of readRowTexts(index, start, end)) {
        const row = parseServedRow(text);
        // A last line without its newline that does not parse is still being written: wait for the rest.
        if (!row && index.offset(i) >= index.complete) return;
        const verdict = row ? (this.verdicts.get(rolloutKey(Number(row._ng_task_index), Number(row._ng_rollout_index))) ?? 0) : 0;
        builder.add(row, verdict);
      }
      // The parsed rows are garbage at once; collecting every ~8 MB read keeps the peak near the columns' size.
      parsedBytes += index.offset(end - 1) + index.length(end - 1) - index.offset(start);
      if (parsedBytes > 8 * 1024 * 1024) {
        collectGarbage();
        parsedBytes = 0;
      }
      // A refresh may have replaced the builder meanwhile: the loop then goes on filling the new one.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  /** The sample table as far as it is read. */
  get columns(): SampleColumns {
    return this.builder.columns();
  }

  rowText(i: number): string {
    return readRowText(this.index!, i);
  }

  /** The run's line on the Runs screen. */
  summary(): RunSummary {
    const paths = runPaths(this.kind === "failures" ? this.related!.file : this.file);
    const stat = fs.statSync(this.file);
    const c = this.columns;
    const health: Record<string, number> = {};
    for (let i = 0; i < c.count; i++) {
      const v = c.verdict[i]!;
      if (v) health[VERDICTS[v]!] = (health[VERDICTS[v]!] ?? 0) + 1;
    }
    const sum = (values: ArrayLike<number>) => {
      let s = 0;
      let any = false;
      for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i]!)) (s += values[i]!), (any = true);
      return any ? s : null;
    };
    const startedAt = [paths.materializedInputs, paths.manifest].map((p) => fs.statSync(p, { throwIfNoEntry: false })?.mtimeMs).find((t) => t !== undefined) ?? stat.birthtimeMs;
    const first = (column: { values: string[] }) => column.values.find(Boolean) ?? "";
    return {
      id: this.id, name: this.name, path: this.file, agent: first(c.agent), model: first(c.model),
      rollouts: this.index?.count ?? 0, indexed: c.count, key_metrics: this.kind === "failures" ? {} : keyMetrics(paths.aggregateMetrics, c), health,
      failures: this.kind === "failures" ? (this.index?.count ?? 0) : countLines(paths.failures), tokens: sum(c.totalTokens), cost: sum(c.cost),
      started: startedAt ? new Date(startedAt).toISOString() : null, finished: new Date(stat.mtimeMs).toISOString(),
      live: Date.now() - stat.mtimeMs < LIVE_MS, kind: this.kind, related: this.related?.id ?? null,
    };
  }
}

/** The first agent's key metrics from `<stem>_aggregate_metrics.json`, else the mean reward of the rows read so far. */
function keyMetrics(file: string, columns: SampleColumns): Record<string, number> {
  try {
    const entries = JSON.parse(fs.readFileSync(file, "utf8")) as Array<Record<string, unknown>>;
    const metrics = (entries[0]?.key_metrics ?? {}) as Record<string, unknown>;
    const out = Object.fromEntries(Object.entries(metrics).filter(([, v]) => typeof v === "number")) as Record<string, number>;
    if (Object.keys(out).length) return out;
  } catch {}
  let s = 0;
  let n = 0;
  for (let i = 0; i < columns.count; i++) if (!Number.isNaN(columns.reward[i]!)) (s += columns.reward[i]!), n++;
  return n ? { "mean/reward": s / n } : {};
}

/** Non-blank lines of a file, read in blocks and kept until the file's size or mtime changes (the Runs screen polls). */
function countLines(file: string): number {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  const known = lineCounts.get(file);
  if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) return known.count;
  let count = 0;
  let content = false;
  const block = Buffer.alloc(1 << 20);
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, "r");
    for (let n = fs.readSync(fd, block); n > 0; n = fs.readSync(fd, block)) {
      for (let i = 0; i < n; i++) {
        const b = block[i]!;
        if (b === 0x0a) {
          if (content) count++;
          content = false;
        } else if (b !== 0x20 && b !== 0x09 && b !== 0x0d) content = true;
      }
    }
    if (content) count++;
  } catch {
    return 0;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
  lineCounts.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, count });
  return count;
}

const lineCounts = new Map<string, { size: number; mtimeMs: number; count: number }>();

/** `rollout_verdicts.jsonl` as task:rollout → verdict code (missing file: none). */
function readVerdicts(file: string): Map<string, number> {
  const out = new Map<string, number>();
  if (!fs.existsSync(file)) return out;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const row = parseRow(line);
    if (!row) continue;
    const code = VERDICTS.indexOf(row.verdict as (typeof VERDICTS)[number]);
    if (code > 0) out.set(rolloutKey(Number(row._ng_task_index), Number(row._ng_rollout_index)), code);
  }
  return out;
}

/** The real paths a viewer may read: the given files, and everything under the given folders. */
export interface Roots {
  files: Set<string>;
  dirs: string[];
}

/** True when `file`'s real path (symlinks followed) is one of the roots or inside a root folder. */
export function isInside(roots: Roots, file: string): boolean {
  let real: string;
  try {
    real = fs.realpathSync(file);
  } catch {
    return false;
  }
  return roots.files.has(real) || roots.dirs.some((dir) => real === dir || real.startsWith(dir + path.sep));
}

/** Finds the runs under `inputs` (default `results/`); a path that does not exist is an error naming it. */
export function findRuns(inputs: string[], options: { cacheDir?: string; warn?: (line: string) => void } = {}): { runs: Run[]; roots: Roots } {
  const roots: Roots = { files: new Set(), dirs: [] };
  const found: string[] = [];
  for (const input of inputs.length ? inputs : ["results"]) {
    const stat = fs.statSync(input, { throwIfNoEntry: false });
    if (!stat) throw new GymError("E_INPUT_NOT_FOUND", `${input} does not exist.`, { hint: "Pass a rollouts .jsonl file or a run folder (default: results/)." });
    const real = fs.realpathSync(input);
    if (stat.isDirectory()) {
      roots.dirs.push(real);
      walk(input, found);
    } else {
      roots.files.add(real);
      found.push(input);
    }
  }
  const seen = new Set<string>();
  const runs: Run[] = [];
  for (const file of found) {
    if (!isInside(roots, file)) {
      options.warn?.(`Skipped ${file}: it links outside the paths given.`);
      continue;
    }
    const real = fs.realpathSync(file);
    if (seen.has(real)) continue;
    seen.add(real);
    runs.push(new Run(String(runs.length), file, runName(file), options.cacheDir));
  }
  // Each run's failed attempts, when it has any, as an entry of their own after the runs.
  for (const run of [...runs]) {
    const failures = runPaths(run.file).failures;
    if (!(fs.statSync(failures, { throwIfNoEntry: false })?.size ?? 0) || !isInside(roots, failures)) continue;
    const entry = new Run(String(runs.length), failures, `${run.name} · failures`, options.cacheDir, "failures");
    entry.related = run;
    run.related = entry;
    runs.push(entry);
  }
  return { runs, roots };
}

/** How a run is named on screen: its folder for a `rollouts.jsonl`, else its file, relative to the working folder. */
function runName(file: string): string {
  const shown = path.basename(file) === "rollouts.jsonl" ? path.dirname(file) : file;
  const relative = path.relative(process.cwd(), shown);
  return relative && !relative.startsWith("..") ? relative : shown;
}

function walk(dir: string, out: string[]): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.name.startsWith(".")) continue;
    const stat = fs.statSync(full, { throwIfNoEntry: false });
    if (!stat) continue;
    if (stat.isDirectory() && !entry.isSymbolicLink()) walk(full, out);
    else if (stat.isFile() && entry.name.endsWith(".jsonl") && !isCompanionFile(entry.name)) out.push(full);
  }
}

/**
 * A row as the server reads it: JSON, or JSON with Python's NaN / Infinity (NeMo Gym writes them) read as the row
 * reader reads them, so such a row is not shown blank. (The page's own `parseRow` stays plain JSON: it runs in the browser.)
 */
export function parseServedRow(text: string): Record<string, unknown> | undefined {
  const row = parseRow(text);
  if (row) return row;
  const value = parseNonFinite(text);
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

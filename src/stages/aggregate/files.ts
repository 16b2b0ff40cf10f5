/** Output files of the analysis stages: sibling names from a rollouts stem, and buffered writes replaced atomically. */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileError, removeStaleTemps } from "../../runtime/files.ts";

/** `results/rollouts.jsonl` + `_aggregate_metrics` + `.json` → `results/rollouts_aggregate_metrics.json`. */
export function siblingPath(file: string, suffix: string, extension: string): string {
  const parsed = path.parse(file);
  return path.join(parsed.dir, `${parsed.name}${suffix}${extension}`);
}

/** Creates (with its folder) a uniquely named temporary file beside `target`, for an atomic replace by rename. */
export function openTempBeside(target: string): { tmp: string; fd: number } {
  const dir = path.dirname(path.resolve(target));
  try {
    fs.mkdirSync(dir, { recursive: true });
    removeStaleTemps(target);
    const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
    return { tmp, fd: fs.openSync(tmp, "w") };
  } catch (error) {
    throw fileError(target, error);
  }
}

/** Writes text through a 1 MB buffer into a temporary file that `commit()` renames over the target. */
export class FileWriter {
  private fd: number;
  private tmp: string;
  private parts: string[] = [];
  private size = 0;

  constructor(readonly target: string) {
    ({ tmp: this.tmp, fd: this.fd } = openTempBeside(target));
  }

  write(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= 1 << 20) this.flush();
  }

  private flush(): void {
    if (this.parts.length === 0) return;
    const text = this.parts.length === 1 ? this.parts[0]! : this.parts.join("");
    this.parts = [];
    this.size = 0;
    // Writing the string lets the runtime encode it once, straight into the write.
    const written = fs.writeSync(this.fd, text);
    const bytes = Buffer.byteLength(text, "utf8");
    if (written === bytes) return;
    const rest = Buffer.from(text, "utf8");
    let offset = written;
    while (offset < rest.length) offset += fs.writeSync(this.fd, rest, offset);
  }

  /** Flushes, closes and renames into place: readers never see a half-written file. */
  commit(): void {
    this.flush();
    fs.closeSync(this.fd);
    try {
      fs.renameSync(this.tmp, this.target);
    } catch (error) {
      fs.rmSync(this.tmp, { force: true });
      throw fileError(this.target, error);
    }
  }

  /** Drops the partial file (on error). */
  abort(): void {
    try {
      fs.closeSync(this.fd);
    } catch {}
    fs.rmSync(this.tmp, { force: true });
  }
}

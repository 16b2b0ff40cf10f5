/** Output files of the analysis stages: sibling names from a rollouts stem, and buffered writes replaced atomically. */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileError } from "../runtime/files.ts";

/** `results/rollouts.jsonl` + `_aggregate_metrics` + `.json` → `results/rollouts_aggregate_metrics.json`. */
export function siblingPath(file: string, suffix: string, extension: string): string {
  const parsed = path.parse(file);
  return path.join(parsed.dir, `${parsed.name}${suffix}${extension}`);
}

/** Writes text through a 1 MB buffer into a temporary file that `commit()` renames over the target. */
export class FileWriter {
  private fd: number;
  private tmp: string;
  private parts: string[] = [];
  private size = 0;

  constructor(readonly target: string) {
    const dir = path.dirname(path.resolve(target));
    try {
      fs.mkdirSync(dir, { recursive: true });
      this.tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
      this.fd = fs.openSync(this.tmp, "w");
    } catch (error) {
      throw fileError(target, error);
    }
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

/** Download progress on stderr: a redrawn line on a terminal, nothing otherwise (a completion line goes to the log). */
import type { Env } from "./cache.ts";

/** Receives byte counts as a download proceeds. */
export interface ProgressSink {
  start(label: string, total: number | undefined, offset: number): void;
  update(bytes: number): void;
  done(): void;
}

const REDRAW_MS = 100;

function human(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["kB", "MB", "GB", "TB"];
  let v = bytes / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[u]}`;
}

/** A progress line on stderr when it is a terminal (and NO_PROGRESS is unset); otherwise a sink that draws nothing. */
export function terminalProgress(env: Env = process.env, stream: { isTTY?: boolean; write(s: string): unknown } = process.stderr): ProgressSink {
  const enabled = Boolean(stream.isTTY) && !env.NO_PROGRESS && env.TERM !== "dumb";
  let label = "";
  let total: number | undefined;
  let bytes = 0;
  let startBytes = 0;
  let started = 0;
  let lastDraw = 0;
  const draw = (final: boolean) => {
    const now = Date.now();
    if (!final && now - lastDraw < REDRAW_MS) return;
    lastDraw = now;
    const rate = (bytes - startBytes) / Math.max((now - started) / 1000, 0.001);
    const pct = total ? ` ${Math.floor((bytes / total) * 100)}%` : "";
    const columns = Number(env.COLUMNS) || 100;
    const line = `${label} ${human(bytes)}${total ? ` / ${human(total)}` : ""}${pct} ${human(rate)}/s`;
    stream.write(`\r\x1b[2K${line.slice(0, columns - 1)}${final ? "\n" : ""}`);
  };
  return {
    start(l, t, offset) {
      label = l;
      total = t;
      bytes = startBytes = offset;
      started = Date.now();
      if (enabled) draw(false);
    },
    update(n) {
      bytes += n;
      if (enabled) draw(false);
    },
    done() {
      if (enabled) draw(true);
    },
  };
}

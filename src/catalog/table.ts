/** Listing tables: aligned columns fitted to the terminal width on a TTY, plain tab-separated lines otherwise. */

export interface TableOptions {
  /** stdout is a terminal: draw a title and aligned columns fitted to `width`. */
  tty: boolean;
  /** Terminal width (COLUMNS); ignored when not a TTY, where cells are never cut. */
  width?: number;
  /** Bold the title and header (a TTY without NO_COLOR). */
  color?: boolean;
}

/** Renders a table. Off a TTY: a header line, then one tab-separated line per row, nothing truncated. */
export function renderTable(title: string, columns: string[], rows: string[][], options: TableOptions): string {
  const clean = rows.map((row) => row.map((cell) => cell.replace(/[\t\r\n]+/g, " ")));
  if (!options.tty) return [columns, ...clean].map((row) => row.join("\t")).join("\n") + "\n";
  const width = Math.max(40, options.width ?? 100);
  const natural = columns.map((c, i) => Math.max(c.length, ...clean.map((row) => row[i]!.length)));
  const widths = fit(natural, width - 2 * (columns.length - 1));
  const line = (cells: string[]) => cells.map((cell, i) => cut(cell, widths[i]!).padEnd(widths[i]!)).join("  ").trimEnd();
  const bold = (s: string) => (options.color ? `\u001b[1m${s}\u001b[0m` : s);
  const out = [bold(title), bold(line(columns)), line(widths.map((w) => "─".repeat(w))), ...clean.map(line)];
  return out.join("\n") + "\n";
}

/** Shrinks the widest columns first until the row fits; no column goes below 6 characters. */
function fit(natural: number[], budget: number): number[] {
  const widths = [...natural];
  let excess = widths.reduce((a, b) => a + b, 0) - budget;
  while (excess > 0) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest]! <= 6) break;
    const second = Math.max(6, ...widths.filter((_, i) => i !== widest));
    const take = Math.min(excess, widths[widest]! - second + 1, widths[widest]! - 6);
    widths[widest]! -= Math.max(1, take);
    excess -= Math.max(1, take);
  }
  return widths;
}

function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/** How stdout should be drawn for this process (TTY, COLUMNS, NO_COLOR). */
export function stdoutTableOptions(): TableOptions {
  const tty = Boolean(process.stdout.isTTY);
  const columns = Number(process.env.COLUMNS) || process.stdout.columns || 100;
  return { tty, width: columns, color: tty && !process.env.NO_COLOR };
}

/**
 * Reverify's verify pass over the rows its join check picked, read by range through the source's row index
 * (`jsonl/row-index.ts`, the index `gym view` reads runs by): rows a --resume or a --limit leaves out, and the
 * evidence and other rows of a --judge-failed-only sidecar, are not read or parsed a second time.
 */
import { GymError } from "../../errors.ts";
import { readRowsAt, stillCurrent } from "../../jsonl/row-index.ts";
import { resumeSkips } from "./cache.ts";
import { type InputEntry, State } from "./inputs.ts";
import type { Picked } from "./join.ts";
import { parseTextRow, type TextRow } from "./lines.ts";

export interface PickOptions {
  judge: boolean;
  limit?: number;
  resume: boolean;
  maxAttempts: number;
  /** Called for each row a resume skips (it counts as done). */
  progress: () => void;
}

/**
 * The rows to verify, in file order, with their input entries: the --limit counts rows before the resume
 * filter, as the streaming pass does. Rows the run appends meanwhile (its own failures sidecar can be the
 * source) lie past the indexed ones; any other change to the source since the join check is an error.
 */
export function* pickedRows(source: string, picked: Picked, o: PickOptions): Generator<{ entry: InputEntry; row: TextRow }> {
  const { index, rows, lines, entries } = picked;
  if (!stillCurrent(index)) {
    throw new GymError("E_INPUT_SCHEMA", `${source} changed while reverify ran: its rows are read again, by position, to verify them.`, { hint: "Do not modify the rollouts while reverify runs; run it again." });
  }
  const read = new Int32Array(rows.length);
  const chosen: number[] = [];
  let considered = 0;
  for (let k = 0; k < rows.length; k++) {
    const entry = entries[k]!;
    if (o.judge && entry.state & (State.done | State.picked)) continue;
    entry.state |= State.picked;
    if (o.limit !== undefined && considered >= o.limit) break;
    considered++;
    if (o.resume && resumeSkips(entry.state, entry.attempts, o.maxAttempts)) {
      o.progress();
      continue;
    }
    read[chosen.length] = rows[k]!;
    chosen.push(k);
  }
  const shown = source === "-" ? "<stdin>" : source;
  let j = 0;
  for (const { text } of readRowsAt(index, read, chosen.length)) {
    const k = chosen[j++]!;
    yield { entry: entries[k]!, row: parseTextRow(text, shown, lines[k]!, true, false)! };
  }
}

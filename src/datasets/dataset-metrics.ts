/** Collate's per-dataset metrics: the fixed fields, the "other" top-level fields, and their JSON form. */
import { GymError } from "../errors.ts";
import { AvgMinMax, type AvgMinMaxSummary } from "./avg-min-max.ts";
import { measurableParams } from "./create-params.ts";
import { stringifyPython } from "../metrics/pyjson.ts";

/** The fixed-field accumulators, merged across rows (and across datasets of one type). */
export class FixedMetrics {
  examples = 0;
  tools = new AvgMinMax();
  words = new AvgMinMax();
  turns = new AvgMinMax();
  temperature = new AvgMinMax();

  merge(other: FixedMetrics): void {
    this.examples += other.examples;
    this.tools.merge(other.tools);
    this.words.merge(other.words);
    this.turns.merge(other.turns);
    this.temperature.merge(other.temperature);
  }

  summary(): Record<string, number | AvgMinMaxSummary> {
    return {
      "Number of examples": this.examples,
      "Number of tools": this.tools.summary(),
      "Json-dumped number of words (proxy for token count)": this.words.summary(),
      "Number of turns": this.turns.summary(),
      Temperature: this.temperature.summary(),
    };
  }
}

/** A summarized "other" field: numbers get AvgMinMax, strings get counts. */
export type OtherSummary = AvgMinMaxSummary | { unique_count: number; total_count: number };

/** Everything collate learns from one dataset file. */
export class DatasetState {
  readonly fixed = new FixedMetrics();
  /** 0-based indices (after repeats) of rows NeMo Gym would reject; never printed, as upstream. */
  readonly offendingIndices: number[] = [];
  private readonly numbers = new Map<string, AvgMinMax>();
  private readonly strings = new Map<string, Map<string, number>>();
  /** First-seen order of the other fields, whichever kind they are. */
  private readonly order: string[] = [];

  /** Measures one raw line (already repeated by the caller). `where` names it in errors. */
  observeLine(index: number, text: string, where: string): void {
    let row: unknown;
    try {
      row = JSON.parse(text);
    } catch {
      this.offendingIndices.push(index);
      return;
    }
    const params = row !== null && typeof row === "object" && !Array.isArray(row) ? measurableParams(row as Record<string, unknown>) : undefined;
    if (!params) {
      this.offendingIndices.push(index);
      return;
    }
    this.fixed.merge(rowMetrics(params));
    this.observeOther(row as Record<string, unknown>, where);
  }

  private observeOther(row: Record<string, unknown>, where: string): void {
    for (const [key, value] of Object.entries(row)) {
      if (key === "responses_create_params" || key === "response") continue;
      for (let item of Array.isArray(value) ? value : [value]) {
        if (typeof item === "boolean") item = item ? 1 : 0;
        if (typeof item === "number") {
          if (this.strings.has(key)) throw mixedField(key, where);
          let acc = this.numbers.get(key);
          if (!acc) this.numbers.set(key, (acc = new AvgMinMax())), this.order.push(key);
          acc.observe(item);
        } else if (typeof item === "string") {
          if (this.numbers.has(key)) throw mixedField(key, where);
          let counts = this.strings.get(key);
          if (!counts) this.strings.set(key, (counts = new Map())), this.order.push(key);
          counts.set(item, (counts.get(item) ?? 0) + 1);
        }
      }
    }
  }

  /** The other fields in first-seen order, summarized. */
  otherSummaries(): [string, OtherSummary][] {
    return this.order.map((key) => {
      const acc = this.numbers.get(key);
      if (acc) return [key, acc.summary()];
      const counts = this.strings.get(key)!;
      let total = 0;
      for (const n of counts.values()) total += n;
      return [key, { unique_count: counts.size, total_count: total }];
    });
  }
}

/** The fixed fields of one valid row, each a one-observation accumulator (NeMo Gym merges these). */
function rowMetrics(params: Record<string, unknown>): FixedMetrics {
  const m = new FixedMetrics();
  m.examples = 1;
  if (params.tools != null) m.tools = AvgMinMax.of((params.tools as unknown[]).length);
  const input = typeof params.input === "string" ? [{ role: "user" }] : (params.input as Record<string, unknown>[]);
  const userTurns = input.filter((item) => item?.role === "user").length;
  if (userTurns > 0) m.turns = AvgMinMax.of(userTurns);
  if (typeof params.temperature === "number") m.temperature = AvgMinMax.of(params.temperature);
  m.words = AvgMinMax.of(countWords(stringifyPython(params, { spaced: true, ensureAscii: true })));
  return m;
}

/** Python's `str.split()` count on `json.dumps` text: ensure_ascii escapes everything else, so only spaces split. */
export function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = text.charCodeAt(i) === 32;
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

function mixedField(key: string, where: string): GymError {
  return new GymError("E_INPUT_SCHEMA", `${where}: field '${key}' holds both strings and numbers across rows, so collate cannot summarize it.`, {
    hint: "NeMo Gym's collate crashes on such a field too; make the field one type (e.g. quote the numbers) or move it under a nested object, which collate ignores.",
  });
}

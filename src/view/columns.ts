/**
 * The sample table of a run: a few fields of every row (task, rollout, reward, verifier fields, tokens, latency),
 * one column each, taken from a row's parsed JSON. Pure: it runs in the server and in a static bundle's page.
 */

/** Health verdicts as the health check writes them; "" where none is known. */
export const VERDICTS = ["", "healthy", "unhealthy", "unobserved"] as const;

/** Text values stored once each: a row holds the code of its value. */
export interface TextColumn {
  codes: ArrayLike<number>;
  values: string[];
}

/** The table, one column per field, `count` rows long; numbers are NaN where a row has none. */
export interface SampleColumns {
  count: number;
  task: ArrayLike<number>;
  rollout: ArrayLike<number>;
  reward: ArrayLike<number>;
  inputTokens: ArrayLike<number>;
  outputTokens: ArrayLike<number>;
  totalTokens: ArrayLike<number>;
  cost: ArrayLike<number>;
  latency: ArrayLike<number>;
  /** Index into VERDICTS. */
  verdict: ArrayLike<number>;
  failureClass: TextColumn;
  agent: TextColumn;
  model: TextColumn;
  /** Verifier fields (top-level scalars such as extracted_answer), by name, as short text. */
  fields: Record<string, TextColumn>;
}

/** The text of row i in a text column. */
export const textAt = (column: TextColumn | undefined, i: number): string => (column ? (column.values[column.codes[i]!] ?? "") : "");

type Floats = Float64Array | Float32Array;

/** A text column being filled: values coded in order of first sight. */
class TextBuilder {
  constructor(public codes: Uint32Array) {}
  values: string[] = [""];
  private known = new Map<string, number>([["", 0]]);
  set(i: number, text: string): void {
    let code = this.known.get(text);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(text);
      this.known.set(text, code);
    }
    if (i >= this.codes.length) this.codes = grow(this.codes, i) as Uint32Array;
    this.codes[i] = code;
  }
  view(count: number): TextColumn {
    if (count > this.codes.length) this.codes = grow(this.codes, count) as Uint32Array;
    return { codes: this.codes.subarray(0, count), values: this.values };
  }
}

function grow<T extends Floats | Uint32Array | Uint8Array>(array: T, atLeast: number): T {
  const next = new (array.constructor as new (n: number) => T)(Math.max(atLeast + 1, Math.ceil(array.length * 1.5)));
  next.set(array);
  if (next instanceof Float64Array || next instanceof Float32Array) next.fill(NaN, array.length);
  return next;
}

const NUMBERS = ["task", "reward", "cost"] as const;
/** Float32 holds these exactly enough: counts below 2^24, seconds to a few microseconds. */
const SMALL = ["rollout", "inputTokens", "outputTokens", "totalTokens", "latency"] as const;

/**
 * Fills the columns row by row in typed arrays (about 50 bytes a row plus each distinct text once), so a run of
 * a million rollouts costs tens of megabytes. `columns()` gives a view of the rows added so far.
 */
export class ColumnsBuilder {
  count = 0;
  private numbers: Record<(typeof NUMBERS)[number] | (typeof SMALL)[number], Floats>;
  private verdicts: Uint8Array;
  private texts: Record<"failureClass" | "agent" | "model", TextBuilder>;
  private fields = new Map<string, TextBuilder>();

  /** `capacity`: the rows expected (a run's row count), so the arrays are made once at their size. */
  constructor(private readonly capacity = 1024) {
    const n = Math.max(16, capacity);
    this.numbers = Object.fromEntries([...NUMBERS.map((k) => [k, new Float64Array(n).fill(NaN)]), ...SMALL.map((k) => [k, new Float32Array(n).fill(NaN)])]) as ColumnsBuilder["numbers"];
    this.verdicts = new Uint8Array(n);
    this.texts = { failureClass: new TextBuilder(new Uint32Array(n)), agent: new TextBuilder(new Uint32Array(n)), model: new TextBuilder(new Uint32Array(n)) };
  }

  private put(key: keyof ColumnsBuilder["numbers"], i: number, value: number): void {
    if (i >= this.numbers[key].length) this.numbers[key] = grow(this.numbers[key], i);
    this.numbers[key][i] = value;
  }

  /** Adds one parsed row (or, for a line that is not a JSON object, a row of blanks). */
  add(row: Row | undefined, verdict = 0): void {
    const r = row ?? {};
    const i = this.count++;
    this.put("task", i, num(r._ng_task_index));
    this.put("rollout", i, num(r._ng_rollout_index));
    this.put("reward", i, num(r.reward));
    const usage = usageOf(r);
    this.put("inputTokens", i, usage.input);
    this.put("outputTokens", i, usage.output);
    this.put("totalTokens", i, usage.total);
    this.put("cost", i, usage.cost);
    const elapsed = num(r.elapsed_seconds);
    this.put("latency", i, Number.isNaN(elapsed) ? num(obj(obj(r.response)?.metadata)?.elapsed_seconds) : elapsed);
    if (i >= this.verdicts.length) this.verdicts = grow(this.verdicts, i);
    this.verdicts[i] = verdict;
    this.texts.failureClass.set(i, typeof r._ng_failure_class === "string" ? r._ng_failure_class : row ? "" : "unparsable_row");
    const agent = obj(r.agent_ref)?.name;
    this.texts.agent.set(i, typeof agent === "string" ? agent : "");
    const model = obj(r.response)?.model;
    this.texts.model.set(i, typeof model === "string" ? model : "");
    for (const [key, value] of Object.entries(r)) {
      if (NOT_VERIFIER.has(key) || ((key.startsWith("_ng_") || key.startsWith("ng_")) && !FAILURE_FIELDS.has(key))) continue;
      if (value !== null && typeof value === "object") continue;
      let column = this.fields.get(key);
      if (!column) {
        if (this.fields.size >= MAX_FIELDS) continue;
        this.fields.set(key, (column = new TextBuilder(new Uint32Array(Math.max(16, this.capacity, i + 1)))));
      }
      const text = typeof value === "string" ? value : JSON.stringify(value);
      column.set(i, text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);
    }
  }

  /** The rows added so far (views over the builder's arrays: valid until the next add). */
  columns(): SampleColumns {
    const n = this.count;
    const view = (key: keyof ColumnsBuilder["numbers"]) => {
      if (n > this.numbers[key].length) this.numbers[key] = grow(this.numbers[key], n);
      return this.numbers[key].subarray(0, n);
    };
    if (n > this.verdicts.length) this.verdicts = grow(this.verdicts, n);
    return {
      count: n, task: view("task"), rollout: view("rollout"), reward: view("reward"), inputTokens: view("inputTokens"), outputTokens: view("outputTokens"),
      totalTokens: view("totalTokens"), cost: view("cost"), latency: view("latency"), verdict: this.verdicts.subarray(0, n),
      failureClass: this.texts.failureClass.view(n), agent: this.texts.agent.view(n), model: this.texts.model.view(n),
      fields: Object.fromEntries([...this.fields].map(([k, b]) => [k, b.view(n)])),
    };
  }
}

/** The same columns as plain arrays (what JSON can carry into a static bundle). */
export function plainColumns(c: SampleColumns): SampleColumns {
  const plain = (a: ArrayLike<number>) => Array.from(a, (v) => (Number.isNaN(v) ? null : v)) as unknown as number[];
  const text = (t: TextColumn): TextColumn => ({ codes: Array.from(t.codes), values: t.values });
  return {
    count: c.count, task: plain(c.task), rollout: plain(c.rollout), reward: plain(c.reward), inputTokens: plain(c.inputTokens), outputTokens: plain(c.outputTokens),
    totalTokens: plain(c.totalTokens), cost: plain(c.cost), latency: plain(c.latency), verdict: Array.from(c.verdict),
    failureClass: text(c.failureClass), agent: text(c.agent), model: text(c.model), fields: Object.fromEntries(Object.entries(c.fields).map(([k, t]) => [k, text(t)])),
  };
}

/** Plain arrays from a bundle back to numbers (JSON spells NaN as null). */
export function revivedColumns(c: SampleColumns): SampleColumns {
  const back = (a: ArrayLike<number>) => Float64Array.from(a as ArrayLike<number | null>, (v) => (v === null ? NaN : v));
  return { ...c, task: back(c.task), rollout: back(c.rollout), reward: back(c.reward), inputTokens: back(c.inputTokens), outputTokens: back(c.outputTokens), totalTokens: back(c.totalTokens), cost: back(c.cost), latency: back(c.latency) };
}

/** Top-level keys that are the rollout's machinery, not a verifier's answer. */
const NOT_VERIFIER = new Set(["responses_create_params", "response", "reward", "agent_ref", "usage", "elapsed_seconds", "task_source", "skills_ref"]);
/** What a failed attempt's row says about its failure (a `_failures.jsonl` row), shown beside the verifier's fields. */
const FAILURE_FIELDS = new Set(["_ng_failure_type", "_ng_failure_message", "_ng_failure_http_status"]);
const MAX_FIELDS = 4;
const MAX_TEXT = 160;

type Row = Record<string, unknown>;

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : typeof v === "boolean" ? Number(v) : NaN);
const obj = (v: unknown): Row | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Row) : undefined);

/** The usage block of a row: its own `usage` (cost accounting) first, else the model response's. */
export function usageOf(row: Row): { input: number; output: number; total: number; cost: number } {
  const own = obj(row.usage);
  const usage = own ?? obj(obj(row.response)?.usage);
  const pick = (key: string) => num(usage?.[key]);
  const input = pick("input_tokens");
  const output = pick("output_tokens");
  let total = pick("total_tokens");
  if (Number.isNaN(total) && !Number.isNaN(input) && !Number.isNaN(output)) total = input + output;
  const cost = [own?.cost, own?.cost_usd, own?.total_cost, row.cost_usd].map(num).find((c) => !Number.isNaN(c)) ?? NaN;
  return { input, output, total, cost };
}

/** Parses a row's text into an object, or undefined when it is not a JSON object. */
export function parseRow(text: string): Row | undefined {
  try {
    return obj(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** `"task:rollout"`, the join key of a rollout. */
export const rolloutKey = (task: number, rollout: number) => `${task}:${rollout}`;

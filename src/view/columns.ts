/**
 * The sample table of a run: a few fields of every row (task, rollout, reward, verifier fields, tokens, latency),
 * one column each, taken from a row's parsed JSON. Pure: it runs in the server and in a static bundle's page.
 */

/** Health verdicts as the health check writes them; "" where none is known. */
export const VERDICTS = ["", "healthy", "unhealthy", "unobserved"] as const;

export interface SampleColumns {
  count: number;
  task: number[];
  rollout: number[];
  reward: number[];
  inputTokens: number[];
  outputTokens: number[];
  totalTokens: number[];
  cost: number[];
  latency: number[];
  /** Index into VERDICTS. */
  verdict: number[];
  failureClass: string[];
  agent: string[];
  model: string[];
  /** Verifier fields (top-level scalars such as extracted_answer), by name, as short text. */
  fields: Record<string, string[]>;
}

/** Top-level keys that are the rollout's machinery, not a verifier's answer. */
const NOT_VERIFIER = new Set(["responses_create_params", "response", "reward", "agent_ref", "usage", "elapsed_seconds", "task_source", "skills_ref"]);
const MAX_FIELDS = 4;
const MAX_TEXT = 160;

type Row = Record<string, unknown>;

export function emptyColumns(): SampleColumns {
  return {
    count: 0, task: [], rollout: [], reward: [], inputTokens: [], outputTokens: [], totalTokens: [], cost: [], latency: [],
    verdict: [], failureClass: [], agent: [], model: [], fields: {},
  };
}

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : typeof v === "boolean" ? Number(v) : NaN);
const obj = (v: unknown): Row | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Row) : undefined);

/** The usage block of a row: its own `usage` (cost accounting) first, else the model response's. */
export function usageOf(row: Row): { input: number; output: number; total: number; cost: number } {
  const own = obj(row.usage);
  const response = obj(obj(row.response)?.usage);
  const pick = (key: string) => {
    const a = num(own?.[key]);
    return Number.isNaN(a) ? num(response?.[key]) : a;
  };
  const input = pick("input_tokens");
  const output = pick("output_tokens");
  let total = pick("total_tokens");
  if (Number.isNaN(total) && !Number.isNaN(input) && !Number.isNaN(output)) total = input + output;
  const cost = [own?.cost, own?.cost_usd, own?.total_cost, row.cost_usd].map(num).find((c) => !Number.isNaN(c)) ?? NaN;
  return { input, output, total, cost };
}

/** Adds one parsed row (or, for a line that is not a JSON object, a row of blanks) to the columns. */
export function addRow(columns: SampleColumns, row: Row | undefined, verdict = 0): void {
  const r = row ?? {};
  const i = columns.count++;
  columns.task.push(num(r._ng_task_index));
  columns.rollout.push(num(r._ng_rollout_index));
  columns.reward.push(num(r.reward));
  const usage = usageOf(r);
  columns.inputTokens.push(usage.input);
  columns.outputTokens.push(usage.output);
  columns.totalTokens.push(usage.total);
  columns.cost.push(usage.cost);
  const elapsed = num(r.elapsed_seconds);
  columns.latency.push(Number.isNaN(elapsed) ? num(obj(obj(r.response)?.metadata)?.elapsed_seconds) : elapsed);
  columns.verdict.push(verdict);
  columns.failureClass.push(typeof r._ng_failure_class === "string" ? r._ng_failure_class : row ? "" : "unparsable_row");
  columns.agent.push(typeof obj(r.agent_ref)?.name === "string" ? (obj(r.agent_ref)!.name as string) : "");
  const model = obj(r.response)?.model;
  columns.model.push(typeof model === "string" ? model : "");
  for (const [key, value] of Object.entries(r)) {
    if (NOT_VERIFIER.has(key) || key.startsWith("_ng_") || key.startsWith("ng_")) continue;
    if (value !== null && typeof value === "object") continue;
    let column = columns.fields[key];
    if (!column) {
      if (Object.keys(columns.fields).length >= MAX_FIELDS) continue;
      column = columns.fields[key] = new Array(i).fill("");
    }
    const text = typeof value === "string" ? value : JSON.stringify(value);
    column.push(text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);
  }
  for (const column of Object.values(columns.fields)) if (column.length === i) column.push("");
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

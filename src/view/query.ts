/**
 * Answers the Samples screen and the Plots from a run's columns: filter (reward range, health verdict, failure
 * class, rows matching a text search), sort, one page; histograms. Pure: the server and a static bundle share it.
 */
import { textAt, VERDICTS, type SampleColumns } from "./columns.ts";

export interface SampleQuery {
  offset: number;
  limit: number;
  sort: string;
  descending: boolean;
  rewardMin: number;
  rewardMax: number;
  verdict: string;
  failureClass: string;
}

export interface SampleRow {
  index: number;
  task: number | null;
  rollout: number | null;
  reward: number | null;
  verdict: string;
  failure_class: string;
  total_tokens: number | null;
  cost: number | null;
  latency: number | null;
  fields: Record<string, string>;
}

export interface SamplePage {
  total: number;
  matched: number;
  offset: number;
  limit: number;
  rows: SampleRow[];
  fields: string[];
  failure_classes: string[];
}

const SORTABLE: Record<string, "task" | "rollout" | "reward" | "totalTokens" | "latency" | "cost"> = {
  index: "task", task: "task", rollout: "rollout", reward: "reward", tokens: "totalTokens", latency: "latency", cost: "cost",
};

const clean = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? null : n);
/** A value kept in 32 bits, printed with the 7 digits it holds (1.741, not 1.7410000562667847). */
const single = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? null : Number(n.toPrecision(7)));

/** Reads a query from URL search parameters (what the page sends), with defaults for what is missing. */
export function parseSampleQuery(params: URLSearchParams): SampleQuery {
  const number = (key: string, fallback: number) => {
    const v = params.get(key);
    const n = v === null || v === "" ? NaN : Number(v);
    return Number.isFinite(n) ? n : fallback;
  };
  return {
    offset: Math.max(0, Math.floor(number("offset", 0))),
    limit: Math.min(500, Math.max(1, Math.floor(number("limit", 50)))),
    sort: params.get("sort") ?? "index",
    descending: params.get("order") === "desc",
    rewardMin: number("min", -Infinity),
    rewardMax: number("max", Infinity),
    verdict: params.get("verdict") ?? "",
    failureClass: params.get("failure") ?? "",
  };
}

/** Row positions that pass the filters; `matches` (from a text search) narrows them further. */
export function filterRows(columns: SampleColumns, query: SampleQuery, matches?: Set<number>): number[] {
  const out: number[] = [];
  const verdict = query.verdict ? VERDICTS.indexOf(query.verdict as (typeof VERDICTS)[number]) : -1;
  const ranged = query.rewardMin !== -Infinity || query.rewardMax !== Infinity;
  for (let i = 0; i < columns.count; i++) {
    if (matches && !matches.has(i)) continue;
    if (ranged) {
      const r = columns.reward[i]!;
      if (Number.isNaN(r) || r < query.rewardMin || r > query.rewardMax) continue;
    }
    if (query.verdict && columns.verdict[i] !== verdict) continue;
    if (query.failureClass && textAt(columns.failureClass, i) !== (query.failureClass === "none" ? "" : query.failureClass)) continue;
    out.push(i);
  }
  return out;
}

/** One page of the filtered rows in the asked order (missing values last, ties by file order). */
export function samplePage(columns: SampleColumns, query: SampleQuery, matches?: Set<number>): SamplePage {
  const rows = filterRows(columns, query, matches);
  const key = SORTABLE[query.sort];
  if (key && query.sort !== "index") {
    const values = columns[key];
    const sign = query.descending ? -1 : 1;
    rows.sort((a, b) => {
      const x = values[a]!;
      const y = values[b]!;
      if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) === Number.isNaN(y) ? a - b : Number.isNaN(x) ? 1 : -1;
      return (x - y) * sign || a - b;
    });
  } else if (query.descending) rows.reverse();
  const page = rows.slice(query.offset, query.offset + query.limit).map((i) => sampleRow(columns, i));
  return {
    total: columns.count, matched: rows.length, offset: query.offset, limit: query.limit, rows: page,
    fields: Object.keys(columns.fields), failure_classes: columns.failureClass.values.filter(Boolean).sort(),
  };
}

export function sampleRow(columns: SampleColumns, i: number): SampleRow {
  return {
    index: i, task: clean(columns.task[i]), rollout: clean(columns.rollout[i]), reward: clean(columns.reward[i]),
    verdict: VERDICTS[columns.verdict[i] ?? 0] ?? "", failure_class: textAt(columns.failureClass, i),
    total_tokens: clean(columns.totalTokens[i]), cost: clean(columns.cost[i]), latency: single(columns.latency[i]),
    fields: Object.fromEntries(Object.entries(columns.fields).map(([k, v]) => [k, textAt(v, i)])),
  };
}

export interface Histogram {
  label: string;
  min: number;
  max: number;
  counts: number[];
  missing: number;
}

/** Counts of `values` in `bins` equal bins over their range (NaN counted as missing). */
export function histogram(label: string, values: ArrayLike<number>, bins = 20): Histogram {
  let min = Infinity;
  let max = -Infinity;
  let missing = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) missing++;
    else {
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  const counts = new Array(bins).fill(0);
  if (min === Infinity) return { label, min: 0, max: 0, counts, missing };
  const width = max > min ? (max - min) / bins : 1;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i]!)) counts[Math.min(bins - 1, Math.floor((values[i]! - min) / width))]++;
  return { label, min, max, counts, missing };
}

/** The Plots screen of one run: reward, latency and token histograms. */
export function runPlots(columns: SampleColumns): Histogram[] {
  return [histogram("reward", columns.reward, 10), histogram("latency (s)", columns.latency), histogram("total tokens", columns.totalTokens)];
}

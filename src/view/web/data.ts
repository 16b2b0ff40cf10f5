/**
 * Where the page's data comes from: the `gym view` server's JSON API, or, in a static bundle opened from
 * file://, the data the bundle carries (`window.GYM_BUNDLE`), answered by the same query code as the server.
 */
import type { SampleColumns } from "../columns.ts";
import { parseRow, revivedColumns } from "../columns.ts";
import { parseSampleQuery, runPlots, samplePage } from "../query.ts";

export interface BundleData {
  runs: Array<Record<string, unknown> & { id: string }>;
  columns: Record<string, SampleColumns>;
  rows: Record<string, string[]>;
  compare: Record<string, unknown>;
}

declare global {
  interface Window {
    GYM_BUNDLE?: BundleData;
  }
}

export const isBundle = () => window.GYM_BUNDLE !== undefined;

const revived = new Map<string, SampleColumns>();
const revive = (id: string, plain: SampleColumns) => revived.get(id) ?? revived.set(id, revivedColumns(plain)).get(id)!;

function fromBundle(data: BundleData, path: string): unknown {
  const url = new URL(path, "http://bundle.invalid/");
  const parts = url.pathname.split("/").filter(Boolean);
  if (parts[1] === "runs" && parts.length === 2) return { mode: "bundle", runs: data.runs };
  if (parts[1] === "compare") {
    const found = data.compare[`${url.searchParams.get("a")}:${url.searchParams.get("b")}`];
    if (!found) throw new Error("This bundle holds no comparison of these two runs.");
    return found;
  }
  const id = parts[2] ?? "";
  const columns = Object.hasOwn(data.columns, id) ? revive(id, data.columns[id]!) : undefined;
  const rows = columns ? data.rows[id]! : undefined;
  if (!columns || !rows) throw new Error(`no run ${id} in this bundle`);
  if (parts.length === 3) return data.runs.find((r) => r.id === id);
  if (parts[3] === "plots") return { run: id, histograms: runPlots(columns) };
  if (parts[3] === "samples" && parts.length === 4) {
    const q = url.searchParams.get("q")?.trim().toLowerCase() ?? "";
    const matches = q ? new Set(rows.flatMap((text, i) => (text.toLowerCase().includes(q) ? [i] : []))) : undefined;
    return { ...samplePage(columns, parseSampleQuery(url.searchParams), matches), indexed: columns.count, rollouts: columns.count };
  }
  if (parts[3] === "samples") {
    const i = Number(parts[4]);
    if (!(i >= 0 && i < rows.length)) throw new Error(`no row ${parts[4]} in run ${id}`);
    return { index: i, run: id, row: parseRow(rows[i]!) ?? null, raw: rows[i] };
  }
  throw new Error(`unknown request ${path}`);
}

/** GETs an API path (`api/runs`, `api/runs/0/samples?…`) as JSON. */
export async function api<T>(path: string): Promise<T> {
  if (window.GYM_BUNDLE) return fromBundle(window.GYM_BUNDLE, `/${path}`) as T;
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  const body = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `${response.status} ${response.statusText}`);
  return body;
}

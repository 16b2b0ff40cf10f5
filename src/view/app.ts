/**
 * `gym view`'s Hono app: the embedded page and its JSON API. Runs are addressed by id only (no path ever comes
 * from a request), every response carries a strict Content-Security-Policy, and row text is served as data.
 */
import { Hono } from "hono";
import { assets } from "./_assets.ts";
import { parseServedRow } from "./runs.ts";
import { compareView } from "./compare.ts";
import { parseSampleQuery, runPlots, samplePage } from "./query.ts";
import type { Run } from "./runs.ts";

export const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The rows of a run matching a text search (case-insensitive, over the raw row), kept for the last search. */
async function searchRows(run: Run, q: string, cache: Map<string, { q: string; count: number; matches: Set<number> }>): Promise<Set<number>> {
  const hit = cache.get(run.id);
  const count = run.index?.count ?? 0;
  if (hit && hit.q === q && hit.count === count) return hit.matches;
  const { readRowTexts } = await import("../jsonl/row-index.ts");
  const needle = q.toLowerCase();
  const matches = new Set<number>();
  if (run.index) {
    for (const { i, text } of readRowTexts(run.index)) {
      if (text.toLowerCase().includes(needle)) matches.add(i);
      // A search reads every row: let other requests in now and then.
      if (i % 2000 === 1999) await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  cache.set(run.id, { q, count, matches });
  return matches;
}

/** Builds the app over the runs found on the command line. */
export function viewApp(runs: Run[]): Hono {
  const byId = new Map(runs.map((r) => [r.id, r]));
  const searches = new Map<string, { q: string; count: number; matches: Set<number> }>();
  const app = new Hono();

  app.use("*", async (c, next) => {
    await next();
    c.header("Content-Security-Policy", CSP);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "no-referrer");
    c.header("Cache-Control", "no-store");
  });

  const page = (c: { body: (b: string, s: 200, h: Record<string, string>) => Response }) => {
    const html = assets["index.html"]!;
    return c.body(html.body, 200, { "Content-Type": html.type });
  };
  app.get("/", (c) => page(c));
  app.get("/index.html", (c) => page(c));
  app.get("/assets/:name", (c) => {
    const asset = Object.hasOwn(assets, c.req.param("name")) ? assets[c.req.param("name")] : undefined;
    if (!asset || c.req.param("name") === "index.html") return c.json({ error: "no such asset" }, 404);
    return c.body(asset.body, 200, { "Content-Type": asset.type });
  });

  const runOf = (id: string) => byId.get(id);
  const missing = (id: string) => ({ error: `no run with id ${JSON.stringify(id)}`, runs: [...byId.keys()] });

  app.get("/api/runs", async (c) => {
    await Promise.all(runs.map((r) => r.refresh()));
    return c.json({ mode: "server", runs: runs.map((r) => r.summary()) });
  });

  app.get("/api/runs/:id", async (c) => {
    const run = runOf(c.req.param("id"));
    if (!run) return c.json(missing(c.req.param("id")), 404);
    await run.refresh();
    return c.json(run.summary());
  });

  app.get("/api/runs/:id/samples", async (c) => {
    const run = runOf(c.req.param("id"));
    if (!run) return c.json(missing(c.req.param("id")), 404);
    await run.refresh();
    const params = new URL(c.req.url).searchParams;
    const query = parseSampleQuery(params);
    const q = params.get("q")?.trim() ?? "";
    const filtered = q || query.sort !== "index" || query.verdict || query.failureClass || query.rewardMin !== -Infinity || query.rewardMax !== Infinity;
    // A filter or an order needs every row's fields; the first page in file order needs only the rows read so far.
    if (filtered || query.descending) await run.complete();
    else await run.rowsRead(query.offset + query.limit);
    const matches = q ? await searchRows(run, q, searches) : undefined;
    return c.json({ ...samplePage(run.columns, query, matches), indexed: run.columns.count, rollouts: run.index!.count });
  });

  app.get("/api/runs/:id/samples/:row", async (c) => {
    const run = runOf(c.req.param("id"));
    if (!run) return c.json(missing(c.req.param("id")), 404);
    await run.refresh();
    const i = Number(c.req.param("row"));
    if (!Number.isInteger(i) || i < 0 || i >= run.index!.count) return c.json({ error: `no row ${c.req.param("row")} in run ${run.id} (it has ${run.index!.count})` }, 404);
    const raw = run.rowText(i);
    return c.json({ index: i, run: run.id, row: parseServedRow(raw) ?? null, raw });
  });

  app.get("/api/runs/:id/plots", async (c) => {
    const run = runOf(c.req.param("id"));
    if (!run) return c.json(missing(c.req.param("id")), 404);
    await run.complete();
    return c.json({ run: run.id, histograms: runPlots(run.columns) });
  });

  app.get("/api/compare", async (c) => {
    const [a, b] = [runOf(c.req.query("a") ?? ""), runOf(c.req.query("b") ?? "")];
    if (!a || !b) return c.json({ error: "compare needs ?a=ID&b=ID of two runs", runs: [...byId.keys()] }, 404);
    await Promise.all([a.complete(), b.complete()]);
    return c.json(compareView({ name: a.name, file: a.file, columns: a.columns }, { name: b.name, file: b.file, columns: b.columns }));
  });

  app.notFound((c) => c.json({ error: "not found" }, 404));
  app.onError((error, c) => c.json({ error: error.message }, 500));
  return app;
}

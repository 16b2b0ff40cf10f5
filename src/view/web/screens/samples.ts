/** The Samples screen of a run: one row per rollout, sortable and filterable, a page at a time. */
import type { SamplePage } from "../../query.ts";
import type { RunSummary } from "../../runs.ts";
import { api } from "../data.ts";
import { fmt, h, mount } from "../dom.ts";
import type { Screen } from "../app.ts";

const KEYS = ["offset", "limit", "sort", "order", "min", "max", "verdict", "failure", "q"];

export async function samplesScreen(screen: Screen, id: string, params: URLSearchParams): Promise<void> {
  const query = new URLSearchParams([...params].filter(([k]) => KEYS.includes(k)));
  const [run, page] = await Promise.all([api<RunSummary>(`api/runs/${encodeURIComponent(id)}`), api<SamplePage & { indexed: number; rollouts: number }>(`api/runs/${encodeURIComponent(id)}/samples?${query}`)]);
  if (!screen.current()) return;
  screen.crumbs(["runs", "#/"], [run.name, `#/run/${id}`]);
  const go = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(query);
    for (const [k, v] of Object.entries(changes)) v === null || v === "" ? next.delete(k) : next.set(k, v);
    if (!("offset" in changes)) next.delete("offset");
    // Filters replace the history entry: Back leaves the Samples screen instead of undoing each filter.
    history.replaceState(null, "", `#/run/${id}${next.size ? `?${next}` : ""}`);
    window.dispatchEvent(new HashChangeEvent("hashchange"));
  };
  const sort = query.get("sort") ?? "index";
  const desc = query.get("order") === "desc";
  const header = (label: string, key?: string) =>
    h("th", { class: key ? `sortable${sort === key ? " sorted" : ""}` : "", onclick: key ? () => go({ sort: key, order: sort === key && !desc ? "desc" : null }) : undefined }, label, key && sort === key ? (desc ? " ▼" : " ▲") : "");
  const input = (name: string, placeholder: string, type = "text") =>
    h("input", { name, type, placeholder, value: query.get(name) ?? "", step: type === "number" ? "any" : undefined, onchange: (e: Event) => go({ [name]: (e.target as HTMLInputElement).value }) });
  const select = (name: string, options: string[], label: string) =>
    h("select", { name, onchange: (e: Event) => go({ [name]: (e.target as HTMLSelectElement).value }) }, h("option", { value: "" }, label), options.map((o) => h("option", { value: o, selected: query.get(name) === o }, o)));
  const filters = h(
    "div",
    { class: "filters" },
    h("span", {}, "reward"), input("min", "min", "number"), h("span", {}, "to"), input("max", "max", "number"),
    select("verdict", ["healthy", "unhealthy", "unobserved"], "any health"),
    select("failure", ["none", ...page.failure_classes], "any failure class"),
    input("q", "search rows…"),
    h("a", { class: "button", href: `#/run/${id}/plots` }, "plots"),
  );
  const table = h(
    "table",
    {},
    h("thead", {}, h("tr", {}, header("#", "index"), header("task", "task"), header("rollout", "rollout"), header("reward", "reward"), page.fields.map((f) => header(f)), header("health"), header("failure class"), header("tokens", "tokens"), header("latency s", "latency"))),
    h(
      "tbody",
      {},
      page.rows.map((r) =>
        h(
          "tr",
          { class: "clickable", "data-testid": "sample-row", onclick: () => (location.hash = `#/run/${id}/sample/${r.index}`) },
          h("td", { class: "num muted" }, String(r.index)),
          h("td", { class: "num" }, fmt(r.task)),
          h("td", { class: "num" }, fmt(r.rollout)),
          h("td", { class: `num ${r.reward === null ? "" : r.reward > 0 ? "good" : "bad"}` }, fmt(r.reward)),
          page.fields.map((f) => h("td", {}, r.fields[f] ?? "")),
          h("td", {}, r.verdict ? h("span", { class: `pill ${r.verdict}` }, r.verdict) : "—"),
          h("td", {}, r.failure_class || "—"),
          h("td", { class: "num" }, fmt(r.total_tokens)),
          h("td", { class: "num" }, fmt(r.latency)),
        ),
      ),
    ),
  );
  const from = page.matched ? page.offset + 1 : 0;
  const to = page.offset + page.rows.length;
  const pager = h(
    "div",
    { class: "pager" },
    h("button", { disabled: page.offset === 0, onclick: () => go({ offset: String(Math.max(0, page.offset - page.limit)) }) }, "← previous"),
    h("span", { "data-testid": "page-info" }, `${from}–${to} of ${page.matched}${page.matched !== page.total ? ` (filtered from ${page.total})` : ""}`),
    h("button", { disabled: to >= page.matched, onclick: () => go({ offset: String(page.offset + page.limit) }) }, "next →"),
  );
  mount(screen.root, h("h2", {}, run.name), filters, table, pager);
  if (page.indexed < page.rollouts) screen.status(`reading rows: ${page.indexed} of ${page.rollouts}`);
}

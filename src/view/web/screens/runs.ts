/** The Runs screen: one row per run, refreshed while a run is still being written. */
import type { RunSummary } from "../../runs.ts";
import { api } from "../data.ts";
import { fmt, h, mount } from "../dom.ts";
import type { Screen } from "../app.ts";

/** A time as `YYYY-MM-DD HH:MM` in the viewer's zone. */
const when = (iso: string | null) => {
  if (!iso) return "—";
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
};

/** The first three key metrics, one a line. */
function metrics(m: Record<string, number>): HTMLElement[] | string {
  const shown = Object.entries(m).slice(0, 3).map(([k, v]) => h("div", {}, h("span", { class: "muted" }, `${k} `), fmt(v)));
  return shown.length ? shown : "—";
}

export async function runsScreen(screen: Screen): Promise<void> {
  const { runs } = await api<{ runs: RunSummary[] }>("api/runs");
  if (!screen.current()) return;
  const table = h(
    "table",
    {},
    h("thead", {}, h("tr", {}, ["run", "agent", "model", "rollouts", "key metrics", "health", "failures", "tokens", "cost", "started", "finished"].map((t) => h("th", {}, t)))),
    h(
      "tbody",
      {},
      runs.map((r) =>
        h(
          "tr",
          { class: "clickable", "data-testid": "run-row", onclick: () => (location.hash = `#/run/${r.id}`) },
          h("td", {}, h("a", { href: `#/run/${r.id}` }, r.name), r.live ? h("span", { class: "pill" }, "live") : null, r.kind === "failures" ? h("span", { class: "pill unhealthy" }, "failed attempts") : null),
          h("td", {}, r.agent || "—"),
          h("td", {}, r.model || "—"),
          h("td", { class: "num" }, r.indexed < r.rollouts ? `${fmt(r.rollouts)} (${fmt(r.indexed)} read)` : fmt(r.rollouts)),
          h("td", {}, metrics(r.key_metrics)),
          h("td", {}, Object.entries(r.health).map(([v, n]) => h("span", { class: `pill ${v}` }, `${v} ${n}`)), Object.keys(r.health).length ? null : "—"),
          h("td", { class: "num" }, r.kind === "rollouts" && r.related ? h("a", { href: `#/run/${r.related}`, onclick: (e: Event) => e.stopPropagation() }, fmt(r.failures)) : fmt(r.failures)),
          h("td", { class: "num" }, fmt(r.tokens)),
          h("td", { class: "num" }, r.cost === null ? "—" : `$${r.cost.toFixed(4)}`),
          h("td", {}, when(r.started)),
          h("td", {}, r.live ? "running" : when(r.finished)),
        ),
      ),
    ),
  );
  const shown = runs.filter((r) => r.kind === "rollouts");
  const compare = shown.length >= 2 ? h("a", { class: "button", href: `#/compare/${shown[0]!.id}/${shown[1]!.id}`, "data-testid": "compare-link" }, `Compare ${shown[0]!.name} → ${shown[1]!.name}`) : null;
  // Any other pair: pick A and B.
  const pick = (name: string, selected: number) => h("select", { name }, shown.map((r, i) => h("option", { value: r.id, selected: i === selected }, r.name)));
  const [pickA, pickB] = [pick("a", 0), pick("b", 1)];
  const other = shown.length > 2 ? [h("span", { class: "muted" }, "or compare"), pickA, h("span", {}, "→"), pickB, h("button", { onclick: () => (location.hash = `#/compare/${(pickA as HTMLSelectElement).value}/${(pickB as HTMLSelectElement).value}`) }, "compare")] : null;
  mount(screen.root, h("h2", {}, `${shown.length} run${shown.length === 1 ? "" : "s"}`), h("div", { class: "toolbar" }, compare, other), table);
  if (runs.some((r) => r.live || r.indexed < r.rollouts)) {
    screen.status("live: refreshing every 2 s");
    setTimeout(() => {
      if (screen.current()) void runsScreen(screen);
    }, 2000);
  }
}

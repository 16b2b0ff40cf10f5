/** The Compare screen: run B against run A, paired by (task, rollout) and by task mean, flips, plots, two transcripts. */
import type { CompareView } from "../../compare.ts";
import type { Histogram } from "../../query.ts";
import { api } from "../data.ts";
import { fmt, h, mount } from "../dom.ts";
import { histogramPlot, scatterPlot } from "../plots.ts";
import { sampleView, type SampleData } from "./sample.ts";
import type { Screen } from "../app.ts";

const signed = (v: number | null) => (v === null ? "—" : `${v > 0 ? "+" : ""}${fmt(v, 4)}`);
const range = (lo: number | null, hi: number | null) => (lo === null || hi === null ? "no interval" : `[${fmt(lo, 4)}, ${fmt(hi, 4)}]`);
const card = (label: string, value: string, note: string) => h("div", { class: "card" }, h("div", { class: "label" }, label), h("div", { class: "value" }, value), h("div", { class: "label" }, note));

export async function compareScreen(screen: Screen, a: string, b: string, task: number): Promise<void> {
  const view = await api<CompareView>(`api/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`);
  if (!screen.current()) return;
  screen.crumbs(["runs", "#/"], [`compare`, `#/compare/${a}/${b}`]);
  const r = view.report;
  const cards = h(
    "div",
    { class: "cards", "data-testid": "compare-stats" },
    card("paired by (task, rollout)", signed(view.paired_rollouts.delta), `${view.paired_rollouts.n} pairs · 95% ${range(view.paired_rollouts.low, view.paired_rollouts.high)}`),
    r ? card(`paired by task (eval compare, ${r.metric})`, signed(r.paired_delta), `${view.tasks.length} tasks · ${range(r.paired_ci_low, r.paired_ci_high)}`) : null,
    r ? card("Welch over repeats (eval compare)", signed(r.delta), range(r.delta_ci_low, r.delta_ci_high)) : null,
    card("task flips", `${view.flips.filter((f) => f.direction === "better").length} better · ${view.flips.filter((f) => f.direction === "worse").length} worse`, r && r.mode === "binary" ? `eval compare: ${r.fail_to_pass} fail→pass, ${r.pass_to_fail} pass→fail` : `${view.tasks.length - view.flips.length} unchanged`),
  );
  const chosen = Number.isNaN(task) ? view.flips[0]?.task ?? view.tasks[0]?.task : task;
  const flips = h(
    "table",
    {},
    h("thead", {}, h("tr", {}, ["task", "run A mean", "run B mean", "Δ"].map((t) => h("th", { class: "num" }, t)), h("th", {}, ""))),
    h(
      "tbody",
      {},
      view.flips.map((f) =>
        h(
          "tr",
          { class: "clickable", "data-testid": "flip-row", onclick: () => {
            history.replaceState(null, "", `#/compare/${a}/${b}?task=${f.task}`);
            window.dispatchEvent(new HashChangeEvent("hashchange"));
          } },
          h("td", { class: "num" }, String(f.task)),
          h("td", { class: "num" }, fmt(f.a)),
          h("td", { class: "num" }, fmt(f.b)),
          h("td", { class: `num ${f.direction === "better" ? "good" : "bad"}` }, signed(f.b - f.a)),
          h("td", { class: "muted" }, f.task === chosen ? "shown below" : "show"),
        ),
      ),
    ),
  );
  const [ha, hb] = await Promise.all([a, b].map((id) => api<{ histograms: Histogram[] }>(`api/runs/${encodeURIComponent(id)}/plots`)));
  const plots = h(
    "div",
    { class: "plots" },
    scatterPlot(view.tasks, "per-task mean reward, A vs B (green: B better)"),
    histogramPlot(ha!.histograms[0]!, `reward · A · ${view.a}`),
    histogramPlot(hb!.histograms[0]!, `reward · B · ${view.b}`),
  );
  const pick = view.tasks.find((t) => t.task === chosen);
  let sides: HTMLElement | null = null;
  if (pick) {
    const [sa, sb] = await Promise.all([api<SampleData>(`api/runs/${encodeURIComponent(a)}/samples/${pick.a_row}`), api<SampleData>(`api/runs/${encodeURIComponent(b)}/samples/${pick.b_row}`)]);
    sides = h("div", {}, h("h3", {}, `task ${pick.task}, first rollout of each run`), h("div", { class: "sides" }, h("div", {}, h("h3", {}, `A · ${view.a}`), sampleView(sa!)), h("div", {}, h("h3", {}, `B · ${view.b}`), sampleView(sb!))));
  }
  if (!screen.current()) return;
  mount(
    screen.root,
    h("h2", {}, `A: ${view.a}  →  B: ${view.b}`),
    view.report ? h("div", { class: "muted" }, `statistics from gym eval compare over ${view.report.source.join(" and ")}`) : null,
    view.warnings.map((w) => h("div", { class: "muted" }, `warning: ${w}`)),
    cards,
    plots,
    h("h3", {}, `${view.flips.length} task${view.flips.length === 1 ? "" : "s"} whose mean reward changed`),
    flips,
    sides,
  );
}

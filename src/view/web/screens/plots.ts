/** The Plots screen of a run: reward, latency and token histograms. */
import type { Histogram } from "../../query.ts";
import type { RunSummary } from "../../runs.ts";
import { api } from "../data.ts";
import { h, mount } from "../dom.ts";
import { histogramPlot } from "../plots.ts";
import type { Screen } from "../app.ts";

export async function plotsScreen(screen: Screen, id: string): Promise<void> {
  const [run, plots] = await Promise.all([api<RunSummary>(`api/runs/${encodeURIComponent(id)}`), api<{ histograms: Histogram[] }>(`api/runs/${encodeURIComponent(id)}/plots`)]);
  if (!screen.current()) return;
  screen.crumbs(["runs", "#/"], [run.name, `#/run/${id}`], ["plots", `#/run/${id}/plots`]);
  mount(screen.root, h("h2", {}, `${run.name} · plots`), h("div", { class: "plots" }, plots.histograms.map((hist) => histogramPlot(hist, hist.label))));
}

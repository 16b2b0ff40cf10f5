/** The Sample screen: one rollout's transcript, with its raw row one click away. */
import type { RunSummary } from "../../runs.ts";
import { api } from "../data.ts";
import { h, mount } from "../dom.ts";
import { transcript } from "../transcript.ts";
import type { Screen } from "../app.ts";

export interface SampleData {
  index: number;
  row: Record<string, unknown> | null;
  raw: string;
}

/** The transcript with a button that swaps it for the raw JSON row. */
export function sampleView(sample: SampleData): HTMLElement {
  const body = h("div", {}, transcript(sample.row, sample.raw));
  let raw = false;
  const toggle = h("button", { "data-testid": "raw-toggle", onclick: () => {
    raw = !raw;
    mount(body, raw ? h("pre", { class: "raw", "data-testid": "raw-row" }, sample.row ? JSON.stringify(sample.row, null, 2) : sample.raw) : transcript(sample.row, sample.raw));
    toggle.textContent = raw ? "show transcript" : "show raw row";
  } }, "show raw row");
  return h("div", {}, h("div", { class: "toolbar" }, toggle), body);
}

export async function sampleScreen(screen: Screen, id: string, index: number): Promise<void> {
  const [run, sample] = await Promise.all([api<RunSummary>(`api/runs/${encodeURIComponent(id)}`), api<SampleData>(`api/runs/${encodeURIComponent(id)}/samples/${index}`)]);
  if (!screen.current()) return;
  screen.crumbs(["runs", "#/"], [run.name, `#/run/${id}`], [`row ${index}`, `#/run/${id}/sample/${index}`]);
  const task = sample.row?._ng_task_index;
  const rollout = sample.row?._ng_rollout_index;
  mount(screen.root, h("h2", {}, `${run.name} · task ${String(task ?? "?")} · rollout ${String(rollout ?? "?")}`), sampleView(sample));
}

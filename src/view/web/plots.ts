/** Small SVG plots (built element by element): a histogram and a scatter of per-task means. */
import type { Histogram } from "../query.ts";
import { fmt, h, s } from "./dom.ts";

const W = 300;
const H = 150;
const PAD = 24;

export function histogramPlot(hist: Histogram, title: string): HTMLElement {
  const max = Math.max(1, ...hist.counts);
  const bw = (W - 2 * PAD) / hist.counts.length;
  const bars = hist.counts.map((n, i) => {
    const bh = ((H - 2 * PAD) * n) / max;
    return s("rect", { x: PAD + i * bw + 1, y: H - PAD - bh, width: Math.max(1, bw - 2), height: bh, fill: "#4c6ef5" }, s("title", {}, `${n}`));
  });
  const total = hist.counts.reduce((a, b) => a + b, 0);
  return h(
    "div",
    { class: "plot", "data-testid": "plot" },
    h("div", { class: "title" }, `${title} · ${total} values${hist.missing ? ` · ${hist.missing} missing` : ""}`),
    s(
      "svg",
      { width: W, height: H, viewBox: `0 0 ${W} ${H}` },
      s("line", { x1: PAD, y1: H - PAD, x2: W - PAD, y2: H - PAD, stroke: "#adb5bd" }),
      bars,
      s("text", { x: PAD, y: H - 8 }, fmt(hist.min)),
      s("text", { x: W - PAD, y: H - 8, "text-anchor": "end" }, fmt(hist.max)),
      s("text", { x: PAD - 4, y: PAD, "text-anchor": "end" }, String(max)),
    ),
  );
}

/** Per-task mean reward of run A (x) against run B (y), with the diagonal. */
export function scatterPlot(points: Array<{ a: number; b: number; task: number }>, title: string): HTMLElement {
  const all = points.flatMap((p) => [p.a, p.b]);
  const lo = Math.min(0, ...all);
  const hi = Math.max(1, ...all);
  const x = (v: number) => PAD + ((v - lo) / (hi - lo || 1)) * (W - 2 * PAD);
  const y = (v: number) => W - PAD - ((v - lo) / (hi - lo || 1)) * (W - 2 * PAD);
  // Jitter repeated points a little so that many tasks at (1, 1) stay countable.
  const seen = new Map<string, number>();
  const dots = points.map((p) => {
    const key = `${p.a}:${p.b}`;
    const k = seen.get(key) ?? 0;
    seen.set(key, k + 1);
    const dx = ((k * 7) % 9) - 4;
    const dy = ((k * 5) % 9) - 4;
    const color = p.b > p.a ? "#2b8a3e" : p.b < p.a ? "#c92a2a" : "#4c6ef5";
    return s("circle", { cx: x(p.a) + (k ? dx : 0), cy: y(p.b) + (k ? dy : 0), r: 3, fill: color, "fill-opacity": 0.7 }, s("title", {}, `task ${p.task}: ${fmt(p.a)} → ${fmt(p.b)}`));
  });
  return h(
    "div",
    { class: "plot", "data-testid": "plot" },
    h("div", { class: "title" }, title),
    s(
      "svg",
      { width: W, height: W, viewBox: `0 0 ${W} ${W}` },
      s("rect", { x: PAD, y: PAD, width: W - 2 * PAD, height: W - 2 * PAD, fill: "none", stroke: "#dee2e6" }),
      s("line", { x1: x(lo), y1: y(lo), x2: x(hi), y2: y(hi), stroke: "#adb5bd", "stroke-dasharray": "4 3" }),
      dots,
      s("text", { x: W / 2, y: W - 6, "text-anchor": "middle" }, "run A mean reward"),
      s("text", { x: 10, y: W / 2, transform: `rotate(-90 10 ${W / 2})`, "text-anchor": "middle" }, "run B mean reward"),
      s("text", { x: PAD, y: W - PAD + 12 }, fmt(lo)),
      s("text", { x: W - PAD, y: W - PAD + 12, "text-anchor": "end" }, fmt(hi)),
    ),
  );
}

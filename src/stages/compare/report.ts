/** Markdown rendering of a compare report: key metrics first, other metrics folded, then sample flips. */
import type { CompareReport, MetricRow } from "./index.ts";

/** 4 decimals under 10, else 2; a dash when missing. */
export function formatNumber(v: number | null | undefined, signed = false): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "—";
  const text = v.toFixed(Math.abs(v) < 10 ? 4 : 2);
  return signed && v >= 0 ? `+${text}` : text;
}

const range = (lo: number | null | undefined, hi: number | null | undefined, signed = false) =>
  lo === null || lo === undefined || hi === null || hi === undefined ? "—" : `[${formatNumber(lo, signed)}, ${formatNumber(hi, signed)}]`;

function table(rows: MetricRow[], level: number): string[] {
  const pct = `${Math.round(level * 1000) / 10}%`;
  const out = [
    `| metric | baseline | baseline 95% CI | candidate | candidate 95% CI | Δ | Welch Δ ${pct} CI | paired Δ ${pct} CI (tasks, MDE) | trust |`,
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    const b = r.baseline;
    const c = r.candidates[0];
    const paired = c && c.paired_ci_low !== null ? `${range(c.paired_ci_low, c.paired_ci_high, true)} (${c.paired_task_count}, ${formatNumber(c.paired_mde)})` : "—";
    out.push(
      `| ${r.metric} | ${formatNumber(b?.value)} | ${range(b?.ci_low, b?.ci_high)} | ${formatNumber(c?.value)} | ${range(c?.ci_low, c?.ci_high)} | ${formatNumber(c?.delta, true)} | ${range(c?.delta_ci_low, c?.delta_ci_high, true)} | ${paired} | ${c?.recommended_interval ?? "—"} |`,
    );
  }
  return out;
}

/** The `compare_report.md` text. */
export function renderCompareMarkdown(report: CompareReport): string {
  const lines = [
    "# Comparison report",
    "",
    `- Baseline: ${report.baseline.sources.map((s) => s.rollouts_jsonl_fpath ?? s.aggregate_metrics_fpath).join(", ")}`,
    `- Candidate: ${report.candidates[0]!.sources.map((s) => s.rollouts_jsonl_fpath ?? s.aggregate_metrics_fpath).join(", ")}`,
    `- Difference intervals at ${report.confidence_level * 100}%; each side's own intervals at 95%. No pass/fail verdict is issued.`,
    "",
    `> **Which interval to trust.** ${report.interval_guide}`,
    "",
  ];
  for (const cmp of report.comparisons) {
    lines.push(`## ${cmp.baseline_agent}${cmp.candidate_agents[0] !== cmp.baseline_agent ? ` vs ${cmp.candidate_agents[0]}` : ""}`, "");
    lines.push(`Tasks: baseline ${cmp.baseline_task_count}, candidate ${cmp.candidate_task_counts[0]}; repeats: baseline ${cmp.baseline_repeat_count ?? "—"}, candidate ${cmp.candidate_repeat_counts[0] ?? "—"}.`, "");
    const key = cmp.metrics.filter((m) => m.is_key_metric);
    const other = cmp.metrics.filter((m) => !m.is_key_metric);
    lines.push("### Key metrics", "", ...table(key, report.confidence_level), "");
    if (other.length) lines.push("<details><summary>All other metrics</summary>", "", ...table(other, report.confidence_level), "", "</details>", "");
    const f = cmp.flips[0]!;
    lines.push("### Sample flips", "");
    if (f.mode === "unavailable") lines.push(`Unavailable: ${f.reason}.`, "");
    else {
      lines.push(`Mode: ${f.mode}. Common tasks ${f.common_task_count}, baseline-only ${f.baseline_only_task_count}, candidate-only ${f.candidate_only_task_count}.`);
      if (f.mode === "binary") lines.push(`pass→fail ${f.pass_to_fail_count}, fail→pass ${f.fail_to_pass_count}, tied ${f.tied_count}, unchanged ${f.unchanged_count}, net ${f.net! >= 0 ? "+" : ""}${f.net}.`);
      lines.push("");
      for (const direction of f.mode === "binary" ? ["pass_to_fail", "fail_to_pass"] : ["changed"]) {
        const list = f.flips.filter((x) => x.direction === direction);
        if (!list.length) continue;
        lines.push(`| task (${direction}) | baseline | candidate | Δ |`, "|---|---|---|---|");
        for (const x of list.slice(0, 10)) lines.push(`| ${x.task_index} | ${formatNumber(x.baseline_score)} | ${formatNumber(x.candidate_score)} | ${formatNumber(x.delta, true)} |`);
        if (list.length > 10) lines.push(`| … ${list.length - 10} more in compare_report.json | | | |`);
        lines.push("");
      }
    }
    for (const n of cmp.notes) lines.push(`- Note: ${n}`);
  }
  for (const w of report.warnings) lines.push(`- Warning: ${w}`);
  return `${lines.join("\n").trimEnd()}\n`;
}

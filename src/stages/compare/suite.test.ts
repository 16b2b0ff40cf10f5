import { expect, test } from "bun:test";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { compareSuite, loadSuite, normalize, renderSuiteMarkdown } from "./suite.ts";

const near = (got: number | null | undefined, want: number, rel = 1e-9) => expect(Math.abs(got! - want)).toBeLessThanOrEqual(rel * Math.abs(want));

function run(dir: string, name: string, repeats: Array<Record<string, number>>): string {
  const entry = { agent_ref: { name: "agent" }, agent_metrics: {}, key_metrics: {}, group_level_metrics: [], repeat_level_metrics: repeats.map((r, i) => ({ _ng_rollout_index: i, missing_count: 0, ...r })) };
  fs.writeFileSync(path.join(dir, `${name}_aggregate_metrics.json`), JSON.stringify([entry]));
  return `${name}.jsonl`;
}

test("§7H: two benchmarks, one lower-is-better metric, equal weights at 90 %", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-suite-"));
  const acc = (xs: number[]) => xs.map((x) => ({ "mean/reward": x }));
  run(dir, "a-base", acc([0.6, 0.64, 0.62]));
  run(dir, "a-cand", acc([0.66, 0.7, 0.65, 0.69]));
  const b = (pairs: number[][]) => pairs.map(([a, e]) => ({ "mean/accuracy": a!, "mean/error_rate": e! }));
  run(dir, "b-base", b([[0.8, 0.1], [0.78, 0.12], [0.82, 0.08]]));
  run(dir, "b-cand", b([[0.81, 0.09], [0.83, 0.07]]));
  fs.writeFileSync(path.join(dir, "suite.yaml"), `
benchmarks:
  A: { metrics: [{ metric: mean/reward, lower: 0, upper: 1, higher_is_better: true }] }
  B:
    metrics:
      - { metric: mean/accuracy, lower: 0, upper: 1 }
      - { metric: mean/error_rate, lower: 0, upper: 1, higher_is_better: false }
models:
  m1:
    A: { baseline: a-base.jsonl, candidate: a-cand.jsonl }
    B: { baseline: b-base.jsonl, candidate: b-cand.jsonl }
`);
  const report = compareSuite(loadSuite(path.join(dir, "suite.yaml")));
  expect(report.cells.map((c) => c.baseline!.scores.map((s) => Math.round(s * 1e9) / 1e9))).toEqual([[60, 64, 62], [85, 83, 87]]);
  near(report.overall.interval!.delta, 3.75);
  near(report.overall.interval!.df!, 7.496977837474815);
  near(report.overall.interval!.low, 1.6353278065264587);
  near(report.overall.interval!.high, 5.864672193473542);
  near(report.cells[0]!.interval!.low, 2.136150204922645);
  near(report.cells[1]!.interval!.df!, 49 / 17);
  expect(report.models[0]!.cells).toBe(2);
  expect(renderSuiteMarkdown(report)).toContain("| **all pairs** | 2 | 3.7500 |");
});

test("normalization needs a complete scale", () => {
  expect(normalize(0.25, { metric: "x", lower: 0, upper: 1, higher_is_better: false })).toBe(75);
  expect(normalize(0.25, { metric: "x", lower: 0 })).toBeNull();
});

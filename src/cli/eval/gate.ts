/** `gym eval gate`: pass or fail a run in CI — metric thresholds, error rate, cost, and regressions against a baseline. */
import { appendFileSync } from "node:fs";
import { allValues, defineGymCommand } from "../_command.ts";
import { EXIT, GymError } from "../../errors.ts";

export default defineGymCommand({
  meta: { name: "eval gate", description: "Fail a CI job when a run misses a threshold or regresses against a baseline (exit 100)" },
  args: {
    run: { type: "positional", required: false, description: "The run to judge: a rollouts .jsonl file (its <stem>_aggregate_metrics.json is read) or a run folder", valueHint: "RUN" },
    min: { type: "string", description: "METRIC=VALUE: the metric (NeMo Gym's name in the aggregate, e.g. mean/reward, pass@1/accuracy) must be at least VALUE (repeatable)", valueHint: "METRIC=VALUE" },
    max: { type: "string", description: "METRIC=VALUE: the metric must be at most VALUE (repeatable)", valueHint: "METRIC=VALUE" },
    "max-error-rate": { type: "string", description: "Largest share (0–1) of expected rollouts without a successful row", valueHint: "R" },
    "max-cost": { type: "string", description: "Largest total cost of the run in USD (policy and judges; every model needs a price)", valueHint: "USD" },
    prices: { type: "string", description: "Prices YAML for --max-cost (default: the run's own --prices, else the built-in table)", valueHint: "FILE" },
    baseline: { type: "string", description: "The run to compare against (rollouts file or run folder), for --max-regression", valueHint: "RUN" },
    "max-regression": { type: "string", description: "METRIC=DELTA: fail when the metric dropped by more than DELTA and the paired per-task interval puts the drop beyond noise (repeatable)", valueHint: "METRIC=DELTA" },
    agent: { type: "string", description: "Judge only this agent's metrics (default: every agent of the run)", valueHint: "NAME" },
    junit: { type: "string", description: "Write a JUnit XML file: one testcase per check, a failure for each missed threshold", valueHint: "FILE" },
    json: { type: "boolean", description: "Print the report (every check, value, threshold, interval) as JSON on stdout" },
  },
  examples: [
    "gym eval gate results/rollouts.jsonl --min mean/reward=0.7 --max-error-rate 0.02",
    "gym eval gate results/pr --baseline results/main --max-regression mean/reward=0.02 --junit gate.xml",
    "gym eval gate results/pr --max-cost 5 --prices prices.yaml",
    "",
    "Exit codes: 0 every check passed, 100 a check failed, 1 bad input (a missing run, a metric the run does not have).",
    "With GITHUB_STEP_SUMMARY set (GitHub Actions), a Markdown table of the checks is appended to it.",
  ],
  async run({ args, rawArgs, json }) {
    if (!args.run) throw new GymError("E_MISSING_ARGUMENT", "gym eval gate needs RUN: a rollouts file or a run folder.", { hint: "e.g. gym eval gate results/rollouts.jsonl --min mean/reward=0.7" });
    const { gateInputs, gateRun, parseThreshold, gateText, gateJunit, gateMarkdown } = await import("../../stages/gate/index.ts");
    const thresholds = (flag: string) => allValues(rawArgs, flag).map((t) => parseThreshold(t, `--${flag}`));
    const number = (flag: "max-error-rate" | "max-cost", ok: (n: number) => boolean, what: string) => {
      const v = args[flag];
      if (v === undefined) return undefined;
      const n = Number(v);
      if (String(v).trim() === "" || !Number.isFinite(n) || !ok(n)) throw new GymError("E_BAD_FLAG_VALUE", `--${flag} expects ${what}, got '${v}'.`, { hint: `For example --${flag} ${flag === "max-cost" ? "5" : "0.05"}.` });
      return n;
    };
    const maxErrorRate = number("max-error-rate", (n) => n >= 0 && n <= 1, "a share between 0 and 1");
    const maxCostUsd = number("max-cost", (n) => n >= 0, "a number of USD ≥ 0");
    const min = thresholds("min");
    const max = thresholds("max");
    const maxRegression = thresholds("max-regression");
    const run = await gateInputs(args.run, "RUN", { counts: maxErrorRate !== undefined, cost: maxCostUsd !== undefined, prices: args.prices });
    const baseline = args.baseline ? (await gateInputs(args.baseline, "--baseline", {})).source : undefined;
    const report = gateRun({ run: run.source, min, max, maxErrorRate, counts: run.counts, maxCostUsd, cost: run.cost, baseline, maxRegression, agent: args.agent });
    if (args.junit) {
      const { writeFileAtomic } = await import("../../runtime/files.ts");
      writeFileAtomic(args.junit, gateJunit(report, args.run));
    }
    const summary = process.env.GITHUB_STEP_SUMMARY;
    if (summary) appendFileSync(summary, gateMarkdown(report, args.run));
    process.stdout.write(json ? `${JSON.stringify({ run: run.rollouts, baseline: args.baseline ?? null, ...report }, null, 2)}\n` : gateText(report, args.run));
    return report.passed ? EXIT.ok : EXIT.gateFailed;
  },
});

/** `gym eval compare`: baseline vs candidate run(s) → compare_report.md / compare_report.json. */
import * as path from "node:path";
import { defineGymCommand } from "../_command.ts";
import { GymError } from "../../errors.ts";

const list = (v: string | undefined) => (v ?? "").split(",").map((s) => s.trim()).filter(Boolean);
const note = (line: string) => void process.stderr.write(`${line}\n`);

export default defineGymCommand({
  meta: { name: "eval compare", description: "Compare a baseline eval run against a candidate run" },
  args: {
    baseline: { type: "string", description: "Baseline rollouts JSONL (its <stem>_aggregate_metrics.json is read)", valueHint: "PATH" },
    "baseline-runs": { type: "string", description: "Pool several baseline runs (comma-separated rollouts paths)", valueHint: "A,B" },
    candidates: { type: "string", description: "Candidate rollouts JSONL", valueHint: "PATH" },
    "candidate-runs": { type: "string", description: "Pool several candidate runs (comma-separated)", valueHint: "A,B" },
    "baseline-agg-metrics": { type: "string", description: "Aggregate-metrics file for --baseline (- for stdin)", valueHint: "PATH" },
    "baseline-runs-agg-metrics": { type: "string", description: "Aggregate-metrics files for --baseline-runs (comma-separated)", valueHint: "A,B" },
    "candidates-agg-metrics": { type: "string", description: "Aggregate-metrics file(s) for the candidate side (comma-separated)", valueHint: "PATH" },
    agent: { type: "string", description: "Agent to compare on both sides", valueHint: "NAME" },
    "baseline-agent": { type: "string", description: "Agent on the baseline side", valueHint: "NAME" },
    "candidate-agents": { type: "string", description: "Agent on the candidate side", valueHint: "NAME" },
    "output-dir": { type: "string", description: "Where to write the reports (default: the candidate's folder)", valueHint: "DIR" },
    "report-format": { type: "string", description: "md, json or both (default both)", valueHint: "FORMAT" },
    "confidence-level": { type: "string", description: "Level of the difference intervals (default 0.95)", valueHint: "L" },
    json: { type: "boolean", description: "Print the JSON report on stdout" },
  },
  examples: [
    "gym eval compare --baseline runs/baseline/rollouts.jsonl --candidates runs/candidate/rollouts.jsonl",
    "gym eval compare --baseline-runs b1/rollouts.jsonl,b2/rollouts.jsonl --candidate-runs c1/rollouts.jsonl,c2/rollouts.jsonl --output-dir results/pooled",
  ],
  async run({ args, json }) {
    const [{ compareRuns, renderCompareMarkdown }, { loadRun }, { FileWriter }] = await Promise.all([
      import("../../stages/compare/index.ts"),
      import("../../stages/compare/load.ts"),
      import("../../stages/aggregate/files.ts"),
    ]);
    const side = (single: string | undefined, runs: string | undefined, singleAgg: string[], runsAgg: string[], flag: string) => {
      if (single && runs) throw new GymError("E_USAGE", `Give either --${flag} or --${flag === "baseline" ? "baseline-runs" : "candidate-runs"}, not both`);
      const paths = single ? [single] : list(runs);
      const aggs = single ? singleAgg : runsAgg;
      if (paths.length === 0 && aggs.length === 0) throw new GymError("E_MISSING_ARGUMENT", `--${flag} is required`, { hint: `e.g. --${flag} runs/${flag}/rollouts.jsonl` });
      const n = Math.max(paths.length, aggs.length);
      return Array.from({ length: n }, (_, i) => loadRun(paths[i] ?? null, aggs[i] === "-" ? "/dev/stdin" : aggs[i]));
    };
    const baseline = side(args.baseline, args["baseline-runs"], list(args["baseline-agg-metrics"]), list(args["baseline-runs-agg-metrics"]), "baseline");
    const cAgg = list(args["candidates-agg-metrics"]);
    const candidate = side(args.candidates, args["candidate-runs"], cAgg, cAgg, "candidates");
    const level = args["confidence-level"] === undefined ? 0.95 : Number(args["confidence-level"]);
    const report = compareRuns({ baseline, candidate, agent: args.agent, baselineAgent: args["baseline-agent"], candidateAgent: args["candidate-agents"], confidenceLevel: level, command: `gym ${process.argv.slice(2).join(" ")}` });
    const format = args["report-format"] ?? "both";
    if (!["md", "json", "both"].includes(format)) throw new GymError("E_BAD_FLAG_VALUE", `--report-format must be md, json or both, got ${format}`);
    const outDir = args["output-dir"] ?? path.dirname(candidate[0]!.rollouts ?? candidate[0]!.aggregateMetrics);
    const { guardOutputs } = await import("../../outputs/guard.ts");
    const read = [...baseline, ...candidate].flatMap((r) => [
      { path: r.rollouts ?? "", role: "a rollouts input" },
      { path: r.aggregateMetrics ?? "", role: "an aggregate-metrics input" },
    ]);
    const reports = [...(format !== "md" ? ["compare_report.json"] : []), ...(format !== "json" ? ["compare_report.md"] : [])];
    guardOutputs(read, reports.map((name) => ({ path: path.join(outDir, name), role: "the report" })), { command: "gym eval compare", suggestion: "Pass --output-dir to write the reports to another folder." });
    const write = (name: string, text: string) => {
      const w = new FileWriter(path.join(outDir, name));
      w.write(text);
      w.commit();
      note(`Wrote ${path.join(outDir, name)}`);
    };
    if (format !== "md") write("compare_report.json", `${JSON.stringify(report, null, 2)}\n`);
    if (format !== "json") write("compare_report.md", renderCompareMarkdown(report));
    for (const w of report.warnings) note(`Warning: ${w}`);
    if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  },
});

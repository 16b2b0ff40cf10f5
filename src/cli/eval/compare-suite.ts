/** `gym eval compare-suite`: compare candidate and baseline runs across benchmarks and models from a suite YAML. */
import * as path from "node:path";
import { defineGymCommand } from "../_command.ts";
import { GymError } from "../../errors.ts";

export default defineGymCommand({
  meta: { name: "eval compare-suite", description: "Compare normalized scores across benchmarks and models" },
  args: {
    suite: { type: "string", description: "Suite YAML (benchmarks, metric scales, model × benchmark runs), or -", valueHint: "PATH" },
    "confidence-level": { type: "string", description: "Level of the difference intervals (default 0.90)", valueHint: "L" },
    "output-dir": { type: "string", description: "Where to write suite_compare_report.{md,json} (default: the suite's folder)", valueHint: "DIR" },
    "report-format": { type: "string", description: "md, json or both (default both)", valueHint: "FORMAT" },
    json: { type: "boolean", description: "Print the JSON report on stdout" },
    example: { type: "boolean", description: "Print an annotated suite YAML and exit" },
  },
  examples: [
    "gym eval compare-suite --suite suite.yaml --confidence-level 0.90 --output-dir results/suite",
    "gym eval compare-suite --example > suite.yaml   # an annotated suite to start from",
    "",
    "The suite YAML:",
    "  benchmarks:                      # each benchmark's metrics, on their full scale (normalized to 0..100)",
    "    mcqa: {metrics: [{metric: mean/reward, lower: 0, upper: 1}]}   # higher_is_better: false flips a metric",
    "  models:                          # model → benchmark → runs (a list is pooled; paths relative to the suite)",
    "    my-model:",
    "      mcqa: {baseline: runs/base/rollouts.jsonl, candidate: runs/cand/rollouts.jsonl}",
  ],
  async run({ args, json }) {
    if (args.example) {
      const { SUITE_EXAMPLE } = await import("../../stages/compare/suite-example.ts");
      process.stdout.write(SUITE_EXAMPLE);
      return;
    }
    if (!args.suite) throw new GymError("E_MISSING_ARGUMENT", "--suite is required", { hint: "e.g. --suite suite.yaml" });
    const level = args["confidence-level"] === undefined ? 0.9 : Number(args["confidence-level"]);
    if (!(level > 0 && level < 1)) throw new GymError("E_BAD_FLAG_VALUE", `--confidence-level must be between 0 and 1, got ${args["confidence-level"]}`);
    const format = args["report-format"] ?? "both";
    if (!["md", "json", "both"].includes(format)) throw new GymError("E_BAD_FLAG_VALUE", `--report-format must be md, json or both, got ${format}`);
    const [{ compareSuite, loadSuite, renderSuiteMarkdown }, { FileWriter }] = await Promise.all([import("../../stages/compare/suite.ts"), import("../../stages/aggregate/files.ts")]);
    const report = compareSuite(loadSuite(args.suite), level);
    const outDir = args["output-dir"] ?? (args.suite === "-" ? "." : path.dirname(args.suite));
    const { guardOutputs } = await import("../../outputs/guard.ts");
    const reports = [...(format !== "md" ? ["suite_compare_report.json"] : []), ...(format !== "json" ? ["suite_compare_report.md"] : [])];
    guardOutputs([{ path: args.suite, role: "--suite" }], reports.map((name) => ({ path: path.join(outDir, name), role: "the report" })), { command: "gym eval compare-suite", suggestion: "Pass --output-dir to write the reports to another folder." });
    const write = (name: string, text: string) => {
      const w = new FileWriter(path.join(outDir, name));
      w.write(text);
      w.commit();
      process.stderr.write(`Wrote ${path.join(outDir, name)}\n`);
    };
    if (format !== "md") write("suite_compare_report.json", `${JSON.stringify(report, null, 2)}\n`);
    if (format !== "json") write("suite_compare_report.md", renderSuiteMarkdown(report));
    for (const e of report.excluded) process.stderr.write(`Excluded ${e.model} × ${e.benchmark}: ${e.reason}\n`);
    if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  },
});

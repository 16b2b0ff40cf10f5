/** `gym eval plan`: prepare one benchmark (if needed) and write its task list with stable ids and row digests. */
import { defineGymCommand } from "../_command.ts";
import { configArgs, configOptions } from "../_args.ts";
import { GymError } from "../../errors.ts";

export default defineGymCommand({
  meta: { name: "eval plan", description: "Write one benchmark's task list (stable ids, row digests) to a plan file" },
  args: {
    benchmark: configArgs.benchmark,
    out: { type: "string", description: "Where to write the plan JSON (default: stdout)", valueHint: "FILE" },
    "task-ids": { type: "string", description: "Only these tasks (comma-separated ids)", valueHint: "A,B" },
    schema: { type: "boolean", description: "Print the plan format's JSON Schema and exit" },
    "search-dir": configArgs["search-dir"],
  },
  overrides: true,
  examples: ["gym eval plan --benchmark arithmetic --out plan.json", "gym eval plan --benchmark arithmetic --task-ids arithmetic-0-0001 --out plan.json", "gym eval plan --schema"],
  async run({ args, rawArgs, overrides }) {
    const plan = await import("../../datasets/plan.ts");
    if (args.schema) {
      process.stdout.write(`${JSON.stringify(plan.PLAN_JSON_SCHEMA, null, 2)}\n`);
      return;
    }
    if (!args.benchmark) throw new GymError("E_MISSING_ARGUMENT", "--benchmark is required (or --schema).", { hint: "See `gym list benchmarks` for names." });
    const [{ resolveConfig, noModelSeed, componentRoots }, { benchmarkDatasets, prepareBenchmarks }, { writeFileAtomic }] = await Promise.all([
      import("../../config/index.ts"),
      import("../../datasets/prepare.ts"),
      import("../../runtime/files.ts"),
    ]);
    const options = await configOptions(args, rawArgs, overrides, { seed: noModelSeed(), placeholders: true });
    const config = await resolveConfig(options);
    const tree = config.resolve();
    const [dataset] = benchmarkDatasets(config.serverInstances);
    // Prepared data already on disk is used as is, so two plans of the same data are byte-identical.
    const { prepared, skipped } = await prepareBenchmarks([dataset!], {
      roots: componentRoots({ searchDirs: options.searchDirs }),
      useCached: true,
      args: (tree.prepare_script_args as Record<string, unknown> | undefined) ?? {},
      log: (line) => process.stderr.write(`${line}\n`),
    });
    const taskIds = args["task-ids"]?.split(",").map((s) => s.trim()).filter(Boolean);
    const result = await plan.buildPlan(args.benchmark, dataset!, [...prepared, ...skipped][0]!, taskIds);
    const text = `${JSON.stringify(result, null, 2)}\n`;
    if (!args.out || args.out === "-") process.stdout.write(text);
    else {
      const { guardOutputs } = await import("../../outputs/guard.ts");
      guardOutputs([{ path: dataset!.jsonlPath, role: "the benchmark's dataset" }, ...options.configPaths!.map((p) => ({ path: p, role: "--config" }))], [{ path: args.out, role: "--out" }], { command: "gym eval plan", suggestion: "Write the plan to a new file, e.g. --out plan.json." });
      writeFileAtomic(args.out, text);
      process.stderr.write(`Wrote a plan of ${result.task_count} task(s) to ${args.out}\n`);
    }
  },
});

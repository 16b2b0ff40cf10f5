/** `gym env publish NAME`: the local publication check of a manifest-backed workload (validate, fixture, placeholders, discovery). */
import { defineGymCommand } from "../_command.ts";
import { jsonArg } from "../_args.ts";
import { printReport, workloadArgs, workloadOptions } from "./_workload.ts";

export default defineGymCommand({
  meta: { name: "env publish", description: "Run the local publication check of a workload and confirm catalog discovery" },
  args: {
    name: { type: "positional", required: true, description: "A manifest-backed workload (environments/NAME or benchmarks/NAME)", valueHint: "NAME" },
    ...workloadArgs,
    "search-dir": { type: "string", description: "Extra root to search (repeatable)", valueHint: "DIR" },
    ...jsonArg,
  },
  examples: [
    "gym env publish my_eval",
    "gym env publish my_benchmark --kind benchmark --json",
    "",
    "Runs `env validate NAME` and `env test NAME`, refuses scaffold placeholders (TODO description or authors,",
    "licensing unknown, a benchmark's TODO canonical_split), and checks that the catalog resolves NAME to this",
    "exact manifest. It records readiness as experimental; it commits, pushes and certifies nothing.",
  ],
  async run({ args, rawArgs, json }) {
    const { publishWorkload } = await import("../../catalog/workload/index.ts");
    const { views, options } = await workloadOptions(args, rawArgs);
    const report = await publishWorkload(args.name, views, options);
    printReport(json, report, () => [`✓ ${report.kind} ${report.name} ${report.version} is ready to publish as ${report.status} (${report.manifest_path}; ${report.verifier_cases} verifier case(s) passed)`]);
  },
});

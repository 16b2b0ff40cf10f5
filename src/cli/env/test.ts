/** `gym env test [NAME]`: a workload's verifier fixture, or a resources server's own tests (`--resources-server`, `--all`). */
import { allValues, defineGymCommand } from "../_command.ts";
import { jsonArg } from "../_args.ts";
import { GymError } from "../../errors.ts";
import { printReport, workloadArgs, workloadOptions } from "./_workload.ts";

export default defineGymCommand({
  meta: { name: "env test", description: "Exercise a workload's verifier fixture, or run resources-server tests" },
  args: {
    name: { type: "positional", required: false, description: "A manifest-backed workload (environments/NAME or benchmarks/NAME)", valueHint: "NAME" },
    ...workloadArgs,
    "update-expected": { type: "boolean", description: "With NAME: rewrite the fixture's expected rewards (after every other check passes)" },
    "resources-server": { type: "string", description: "Run this server's own tests (*.test.ts beside its index.ts)", valueHint: "NAME" },
    all: { type: "boolean", description: "Run the tests of every resources server under the roots" },
    "search-dir": { type: "string", description: "Extra root to search (repeatable)", valueHint: "DIR" },
    ...jsonArg,
  },
  examples: [
    "gym env test my_eval",
    "gym env test --resources-server my_server --search-dir .",
    "gym env test --all --search-dir .",
    "",
    "A workload's fixture is resources_servers/<server>/tests/verifier_cases.jsonl: a full_reward, a zero_reward",
    "and a malformed case (and a determinism case when the manifest says seeded), each on a fresh in-process",
    "server. Server tests run in the Bun the gym binary carries, with gym/server-sdk provided: no install needed.",
  ],
  async run({ args, rawArgs, json }) {
    const targets = [args.name, args["resources-server"], args.all ? "--all" : undefined].filter(Boolean);
    if (targets.length !== 1) {
      throw new GymError("E_USAGE", targets.length ? "Give one of NAME, --resources-server NAME or --all." : "gym env test needs a target: a workload NAME, --resources-server NAME, or --all.", {
        hint: "Testing every server is slow, so it needs the explicit --all.",
      });
    }
    if (args.name) {
      const { testWorkload } = await import("../../catalog/workload/index.ts");
      const { views, options } = await workloadOptions(args, rawArgs);
      const { verifier } = await testWorkload(args.name, views, { ...options, updateExpected: Boolean(args["update-expected"]) });
      return printReport(json, verifier, () => [
        `✓ verifier fixture of ${verifier.kind} ${verifier.name} passed (${verifier.fixture_path})`,
        ...verifier.cases.map((c) => `  ${c.kind.padEnd(12)} ${c.name}${c.observed_rewards.length ? `: reward ${c.observed_rewards.join(", ")}` : ": refused as declared"}`),
      ]);
    }
    const { runServerTests, serverTestFolders } = await import("../../catalog/server-tests.ts");
    const name = args["resources-server"] as string | undefined;
    return runServerTests(name, serverTestFolders(name, allValues(rawArgs, "search-dir")));
  },
});

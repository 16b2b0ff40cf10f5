/** `gym env init`: scaffold a resources server (TypeScript layout), or a manifest-backed environment or benchmark skeleton. */
import { defineGymCommand } from "../_command.ts";
import { GymError } from "../../errors.ts";

export default defineGymCommand({
  meta: { name: "env init", description: "Scaffold a resources server, environment, or benchmark in the current directory" },
  args: {
    "resources-server": { type: "string", description: "Write resources_servers/NAME/ (index.ts, task_data.ts, configs/NAME.yaml, data/example.jsonl, a test)", valueHint: "NAME" },
    environment: { type: "string", description: "Write environments/NAME/ with manifest.yaml and config.yaml", valueHint: "NAME" },
    benchmark: { type: "string", description: "Write benchmarks/NAME/ with manifest.yaml, config.yaml, prompt.yaml and prepare.ts", valueHint: "NAME" },
    profile: { type: "enum", options: ["custom-gym-verifier", "custom-gym-agent-loop", "external-agent-loop", "external-rollout-driver"], description: "Integration profile of the environment/benchmark (default custom-gym-verifier)" },
    "reuse-verifier": { type: "string", description: "Use an existing resources server instead of scaffolding one", valueHint: "NAME" },
    "reward-range": { type: "string", description: "LOW,HIGH reward range, or LOW HIGH (with --reuse-verifier)", valueHint: "LOW,HIGH", values: 2 },
    "higher-is-better": { type: "boolean", description: "Higher rewards are better (with --reuse-verifier)" },
    "lower-is-better": { type: "boolean", description: "Lower rewards are better (with --reuse-verifier)" },
  },
  examples: ["gym env init --resources-server my_server", "gym env init --environment my_eval --profile custom-gym-verifier", "gym env init --benchmark my_benchmark --reuse-verifier mcqa --reward-range 0,1 --higher-is-better"],
  async run({ args }) {
    const { scaffoldResourcesServer, scaffoldWorkload } = await import("../../catalog/scaffold.ts");
    const given = (["resources-server", "environment", "benchmark"] as const).filter((k) => args[k]);
    if (given.length !== 1) throw new GymError("E_USAGE", "Give exactly one of --resources-server, --environment, --benchmark.", { hint: "e.g. gym env init --resources-server my_server" });
    const scaffoldOnly = args.profile || args["reuse-verifier"] || args["reward-range"] || args["higher-is-better"] || args["lower-is-better"];
    if (args["resources-server"]) {
      if (scaffoldOnly) throw new GymError("E_USAGE", "--profile, --reuse-verifier and the reward options need --environment or --benchmark.");
      const result = scaffoldResourcesServer(process.cwd(), args["resources-server"]);
      if (result.existed) process.stderr.write(`${result.existed} already exists; nothing was written.\n`);
      else process.stderr.write(`Wrote ${result.written.length} files; see them with: gym list resources-servers --search-dir .\n`);
      for (const path of result.written) process.stdout.write(`${path}\n`);
      return;
    }
    const reuse = args["reuse-verifier"];
    const direction = args["higher-is-better"] ? true : args["lower-is-better"] ? false : undefined;
    if (args["higher-is-better"] && args["lower-is-better"]) throw new GymError("E_USAGE", "--higher-is-better and --lower-is-better are mutually exclusive.");
    if (reuse && (args["reward-range"] === undefined || direction === undefined)) throw new GymError("E_USAGE", "--reuse-verifier needs --reward-range and --higher-is-better or --lower-is-better.");
    if (!reuse && (args["reward-range"] !== undefined || direction !== undefined)) throw new GymError("E_USAGE", "--reward-range and the direction flags are only allowed with --reuse-verifier.");
    let reward: { range: [number, number]; higher_is_better: boolean } | undefined;
    let inherit: { resourcesServer: string; agent?: string } | undefined;
    if (reuse) {
      // The verifier must exist now, not only when `env validate` runs later.
      const [{ selectorPath, componentRoots, readFromRoots }, { reusedInstances }] = await Promise.all([import("../../config/index.ts"), import("../../catalog/scaffold.ts")]);
      const roots = componentRoots({ cwd: process.cwd() });
      const configPath = await selectorPath("resources-server", reuse, roots).catch((error: Error) => {
        // Name the flag the user typed, not the selector it stands for.
        const guess = / Did you mean `[^`]+`\?/.exec(error.message)?.[0] ?? "";
        throw new GymError("E_BAD_FLAG_VALUE", `--reuse-verifier ${reuse}: there is no resources server of that name.${guess}`, { hint: "List them with `gym list resources-servers` (add --search-dir DIR for your own), or leave out --reuse-verifier to scaffold a new one." });
      });
      const { found } = await readFromRoots(configPath, roots);
      inherit = reusedInstances(reuse, found?.text ?? "", found?.display ?? configPath);
      const [lo, hi] = args["reward-range"]!.split(/[,\s]+/).map(Number);
      if (!Number.isFinite(lo) || !Number.isFinite(hi) || !(lo! < hi!)) throw new GymError("E_BAD_FLAG_VALUE", `--reward-range must be LOW,HIGH with LOW < HIGH, got '${args["reward-range"]}'.`);
      reward = { range: [lo!, hi!], higher_is_better: direction! };
    }
    const kind = args.environment ? "environment" : "benchmark";
    const result = scaffoldWorkload(process.cwd(), { kind, name: (args.environment ?? args.benchmark)!, profile: args.profile ?? "custom-gym-verifier", reuseVerifier: reuse, reward, inherit });
    const name = (args.environment ?? args.benchmark)!;
    process.stderr.write(`Wrote ${result.written.length} files (${result.unchanged.length} already identical); see it with: gym list ${kind}s --search-dir .\n`);
    process.stderr.write(`Next: ${kind === "benchmark" ? `gym eval prepare --benchmark ${name} --search-dir . (writes its data), then ` : ""}gym env validate ${name}\n`);
    for (const path of result.written) process.stdout.write(`${path}\n`);
  },
});

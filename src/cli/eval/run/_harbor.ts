/** `gym eval run TARGET`: a Harbor task folder (or folder of them) through the oracle or the terminal agent, results under results/harbor/<taskset>/. */
import type { ResolveConfigOptions } from "../../../config/index.ts";
import { GymError } from "../../../errors.ts";
import { checkProviderName, sandboxProvider } from "../../../sandbox/provider.ts";

export interface HarborRunArgs {
  target: string;
  agent?: string;
  /** `--agent-type` was given (it may bring the terminal agent without --agent). */
  agentType?: string;
  sandbox?: string;
  only: string[];
  exclude: string[];
  json: boolean;
  /** `-o/--output`: the rollouts file. */
  output?: string;
  /** The config (model, agent) for a model-driven agent; built only when one is asked for. */
  options: () => Promise<ResolveConfigOptions>;
}

export async function harborEvalRun(args: HarborRunArgs): Promise<number> {
  const oracle = args.agent === "harbor_oracle";
  if (!oracle && !args.agent && !args.agentType) {
    throw new GymError("E_MISSING_ARGUMENT", "a Harbor TARGET needs an agent", {
      hint: `gym eval run ${args.target} --agent harbor_oracle (the task's own solution), or --agent terminal --model-type openai_model --model … --model-url … (a model in a terminal), or --agent codex_agent | opencode_agent | claude_code_agent with a model (a coding-agent CLI)`,
    });
  }
  const name = checkProviderName(args.sandbox ?? "local");
  const [{ loadTaskSet }, { validateTaskSet }] = await Promise.all([import("../../../datasets/harbor/tasks.ts"), import("../../../datasets/harbor/validate.ts")]);
  const { resolveHarborTarget } = await import("../../../datasets/harbor/hub/pull.ts");
  const resolved = await resolveHarborTarget(args.target, { log: (line) => process.stderr.write(`${line}\n`) });
  const set = loadTaskSet(resolved.dir, args.only, args.exclude, { taskset: resolved.taskset });
  const agentName = args.agent ?? args.agentType!.split("/")[0]!;
  if (set.config.allowedAgents && !set.config.allowedAgents.includes(agentName)) {
    throw new GymError("E_CONFIG", `${set.config.path}: [gym] allowed_agents (${set.config.allowedAgents.join(", ")}) does not admit --agent ${agentName}`, { hint: "run one of the admitted harnesses, or add this one to allowed_agents" });
  }
  const provider = await sandboxProvider(name);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  log(`${set.taskset}: ${set.tasks.length} task(s)${set.skipped.length ? `, ${set.skipped.length} did not load (skipped.json)` : ""}\n${provider.limits}`);
  let outcome: { dir: string; rollouts: string; rows: { reward: number; mask_sample: boolean; oracle?: string }[]; lines: string[] };
  if (oracle) outcome = await validateTaskSet(set, { kind: "eval", output: args.output, provider, log });
  else {
    const [{ harborAgentRun }, { VERSION }] = await Promise.all([import("../../../run/harbor.ts"), import("../../version.ts")]);
    outcome = await harborAgentRun({ set, provider, options: await args.options(), agent: args.agent, version: VERSION, output: args.output, log });
  }
  const scored = outcome.rows.filter((r) => r.oracle !== "unvalidated" && !r.mask_sample);
  const mean = scored.length ? scored.reduce((sum, r) => sum + r.reward, 0) / scored.length : null;
  if (args.json) process.stdout.write(`${JSON.stringify({ results_dir: outcome.dir, rollouts: outcome.rollouts, scored: scored.length, mean_reward: mean, tasks: outcome.rows, skipped: set.skipped })}\n`);
  else process.stdout.write(`${outcome.lines.join("\n")}\n`);
  log(`${scored.length}/${set.tasks.length + set.skipped.length} task(s) scored, mean reward ${mean ?? "-"}; rollouts in ${outcome.rollouts}`);
  return scored.length > 0 ? 0 : 1;
}

/** Hostile inputs for `gym eval reverify` and `gym eval profile`: bad rollouts and inputs, outputs over inputs. */
import { hostileSuite, type HostileCase } from "../hostile.ts";
import { editLine } from "../hostile-base.ts";
import { badLines, badRolloutFields, deepLine } from "./shared.ts";

const RV = ["eval", "reverify", "--resources-server", "mcqa"];
const reverify = (rollouts: string, inputs = "r_materialized_inputs.jsonl", out = "out/rv.jsonl") => [...RV, "--inputs", inputs, "--rollouts", rollouts, "-o", out];
const profile = (rollouts: string, inputs = "r_materialized_inputs.jsonl") => ["eval", "profile", "--inputs", inputs, "--rollouts", rollouts];

/** The inputs with line `n`'s prompt changed: the same (task, rollout) keys, another run's prompt. */
const otherPrompt = (text: string, n: number) =>
  editLine(text, n, (row) => {
    const input = (row.responses_create_params as { input: { content: string }[] }).input;
    input[0]!.content += " (another run's prompt)";
    return row;
  });

const cases: HostileCase[] = [
  // Inputs from another run: same indices, another prompt. Both file:line positions are named.
  { name: "reverify: --inputs from another run (line 3's prompt differs)", files: { "m.jsonl": (b) => otherPrompt(b.inputs, 3) }, args: reverify("r.jsonl", "m.jsonl"), message: ["r.jsonl:3", "m.jsonl:3", "another prompt"] },
  { name: "profile: --inputs from another run (line 3's prompt differs)", files: { "m.jsonl": (b) => otherPrompt(b.inputs, 3) }, args: [...profile("r.jsonl", "m.jsonl"), "--output", "p.jsonl"], message: ["r.jsonl:3", "m.jsonl:3", "another prompt"] },
  ...badLines("s.jsonl", "rollouts", (f) => reverify(f), "reverify --rollouts"),
  ...badLines("m.jsonl", "inputs", (f) => reverify("r.jsonl", f), "reverify --inputs"),
  ...badRolloutFields("s.jsonl", (f) => reverify(f), "reverify --rollouts", ["task", "rollout"]),
  ...badLines("s.jsonl", "rollouts", (f) => profile(f), "profile --rollouts"),
  ...badLines("m.jsonl", "inputs", (f) => profile("r.jsonl", f), "profile --inputs"),
  ...badRolloutFields("s.jsonl", (f) => profile(f), "profile --rollouts", ["reward", "task", "rollout"]),
  { name: "profile --inputs: line 2 nests 5000 arrays deep", files: { "m.jsonl": (b) => deepLine(b.inputs, 2) }, args: [...profile("r.jsonl", "m.jsonl"), "--output", "p.jsonl"], message: ["m.jsonl:2", "1000 levels"] },
  // Outputs over inputs.
  { name: "reverify: -o is --inputs", args: reverify("r.jsonl", "r_materialized_inputs.jsonl", "r_materialized_inputs.jsonl"), code: 2, message: ["--inputs", "overwrite"] },
  { name: "reverify: -o is --rollouts", args: reverify("r.jsonl", "r_materialized_inputs.jsonl", "r.jsonl"), code: 2, message: ["--rollouts", "overwrite"] },
  { name: "reverify: -o is a symlink to --rollouts", files: { "l.jsonl": { symlink: "r.jsonl" } }, args: reverify("r.jsonl", "r_materialized_inputs.jsonl", "l.jsonl"), code: 2, message: ["l.jsonl", "overwrite"] },
  { name: "reverify: the failures sidecar of -o is --inputs", files: { "x_failures.jsonl": (b) => b.inputs }, args: reverify("r.jsonl", "x_failures.jsonl", "x.jsonl"), code: 2, message: ["x_failures.jsonl", "failures", "overwrite"] },
  { name: "reverify: the metrics file of -o is --rollouts", files: { "x_aggregate_metrics.json": (b) => b.rollouts }, args: reverify("x_aggregate_metrics.json", "r_materialized_inputs.jsonl", "x.jsonl"), code: 2, message: ["x_aggregate_metrics.json", "overwrite"] },
  { name: "reverify: -o is an existing directory", files: { od: { dir: true } }, args: reverify("r.jsonl", "r_materialized_inputs.jsonl", "od"), code: 2, message: ["od", "directory"] },
  { name: "reverify: --output --resume", args: [...RV, "--inputs", "r_materialized_inputs.jsonl", "--rollouts", "r.jsonl", "--output", "--resume"], code: 2, message: ["--output", "--resume"] },
  { name: "reverify: --concurrency 0", args: [...reverify("r.jsonl"), "--concurrency", "0"], code: 2, message: ["--concurrency", "≥ 1"] },
  { name: "reverify: --limit -2", args: [...reverify("r.jsonl"), "--limit", "-2"], code: 2, message: ["--limit", "≥ 1"] },
  { name: "reverify: --rollouts \"\"", args: reverify(""), code: 2, message: ["--rollouts", "empty value"] },
  { name: "reverify: -o DIR/", args: reverify("r.jsonl", "r_materialized_inputs.jsonl", "rv/"), code: 2, message: ["rv/", "folder"] },
  { name: "profile: --inputs \"\"", args: profile("r.jsonl", ""), code: 2, message: ["--inputs", "empty value"] },
  { name: "reverify: --rollouts does not exist", args: reverify("nope.jsonl"), message: ["nope.jsonl"] },
  { name: "reverify: --inputs is a directory", files: { "m.jsonl": { dir: true } }, args: reverify("r.jsonl", "m.jsonl"), message: ["m.jsonl", "directory"] },
  { name: "profile: a derived file is --inputs", files: { "r_reward_profiling.jsonl": (b) => b.inputs }, args: profile("r.jsonl", "r_reward_profiling.jsonl"), code: 2, message: ["r_reward_profiling.jsonl", "overwrite"] },
  { name: "profile: a derived file of --output is --rollouts", files: { "p_agent_metrics.json": (b) => b.rollouts }, args: [...profile("p_agent_metrics.json"), "--output", "p.jsonl"], code: 2, message: ["p_agent_metrics.json", "overwrite"] },
  { name: "profile: --output names a directory's files over an input", files: { "q_repeat_level_metrics.json": (b) => b.rollouts }, args: [...profile("q_repeat_level_metrics.json"), "--output", "q.jsonl"], code: 2, message: ["q_repeat_level_metrics.json", "overwrite"] },
  { name: "profile: --rollouts does not exist", args: profile("nope.jsonl"), message: ["nope.jsonl"] },
  { name: "profile: --output takes a flag", args: [...profile("r.jsonl"), "--output", "--json"], code: 2, message: ["--output"] },
];

hostileSuite("hostile inputs: gym eval reverify and profile", cases);

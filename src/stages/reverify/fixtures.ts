/**
 * Test data for reverify: each built-in verifier's published NeMo Gym rollouts turned into the two files
 * `gym eval run` writes (rollouts + materialized inputs), joined the way each verifier's own test does
 * (verifiers.md §2): materialized inputs as published, else `example.jsonl` by `_ng_task_index` or by
 * prompt, else the self-contained rollout row minus its verify outputs.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Row } from "../../jsonl/read.ts";
import { stampedLine } from "./verify.ts";

const COMPONENTS = path.join(import.meta.dir, "../../components/resources_servers");

export interface ReverifyCase {
  /** Test name (the verifier, plus the data file when a verifier publishes two). */
  name: string;
  /** `--resources-server` selector of the config that produced the rollouts. */
  selector: string;
  /** Whether the server reports reverify_mode `stateless` (else the run needs --force). */
  stateless: boolean;
  /** Stored reward per identity, in rollouts-file order. */
  stored: { key: string; reward: number }[];
  inputsText: string;
  rolloutsText: string;
}

type Join = { kind: "materialized" } | { kind: "by-index"; dataset: string } | { kind: "by-prompt"; dataset: string } | { kind: "self"; outputs: string[] };

interface Spec {
  name: string;
  server: string;
  selector: string;
  agent: string;
  rollouts: string;
  join: Join;
  stateless?: boolean;
}

const SPECS: Spec[] = [
  { name: "mcqa", server: "mcqa", selector: "mcqa", agent: "mcqa_simple_agent", rollouts: "example_rollouts.jsonl", join: { kind: "by-prompt", dataset: "example.jsonl" }, stateless: true },
  { name: "mcqa (template metadata)", server: "mcqa", selector: "mcqa", agent: "mcqa_simple_agent", rollouts: "example_rollouts_with_template_metadata.jsonl", join: { kind: "by-prompt", dataset: "example_with_template_metadata.jsonl" }, stateless: true },
  { name: "string_match", server: "string_match", selector: "string_match", agent: "string_match_simple_agent", rollouts: "example_rollouts.jsonl", join: { kind: "by-index", dataset: "example.jsonl" } },
  { name: "equivalence_rule", server: "equivalence_rule", selector: "equivalence_rule/lc", agent: "lc_equivalence_rule_simple_agent", rollouts: "example_rollouts.jsonl", join: { kind: "self", outputs: ["response", "reward", "equivalence_score"] } },
  { name: "format_verification", server: "format_verification", selector: "format_verification/freeform_formatting", agent: "freeform_formatting_simple_agent", rollouts: "example_rollouts.jsonl", join: { kind: "self", outputs: ["response", "reward", "match_details"] } },
  { name: "circle_click", server: "circle_click", selector: "circle_click", agent: "circle_click_simple_agent", rollouts: "example_rollouts.jsonl", join: { kind: "materialized" } },
  { name: "example_single_tool_call", server: "example_single_tool_call", selector: "example_single_tool_call", agent: "example_single_tool_call_simple_agent", rollouts: "example_rollouts.jsonl", join: { kind: "by-prompt", dataset: "example.jsonl" } },
  { name: "example_multi_step", server: "example_multi_step", selector: "example_multi_step", agent: "example_multi_step_simple_agent", rollouts: "example_rollouts.jsonl", join: { kind: "by-prompt", dataset: "example.jsonl" } },
  { name: "example_tool_call_multireward", server: "example_tool_call_multireward", selector: "example_tool_call_multireward", agent: "example_tool_call_multireward_simple_agent", rollouts: "example_rollouts.jsonl", join: { kind: "by-index", dataset: "example.jsonl" } },
  { name: "example_session_state_mgmt", server: "example_session_state_mgmt", selector: "example_session_state_mgmt", agent: "example_session_state_mgmt_simple_agent", rollouts: "example_rollouts.jsonl", join: { kind: "by-prompt", dataset: "example.jsonl" } },
  { name: "example_multi_turn_gymnasium", server: "example_multi_turn_gymnasium", selector: "example_multi_turn_gymnasium", agent: "example_multi_turn_gymnasium_agent", rollouts: "example_rollouts.jsonl", join: { kind: "materialized" } },
];

function lines(file: string): string[] {
  return fs.readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "");
}

/** Input messages compared by role and content only (rollouts re-serialise them with `type` and nulls). */
function promptKey(row: Row): string {
  const input = (row.responses_create_params as Row).input;
  if (typeof input === "string") return JSON.stringify(input);
  return JSON.stringify((input as Row[]).map((m) => [m.role ?? null, m.content ?? null]));
}

/** Builds one case's two files (as text, original number formatting kept). */
function build(spec: Spec): ReverifyCase {
  const data = path.join(COMPONENTS, spec.server, "data");
  const rolloutLines = lines(path.join(data, spec.rollouts));
  const inputs: string[] = [];
  const rollouts: string[] = [];
  const stored: { key: string; reward: number }[] = [];
  const perTask = new Map<number, number>();
  const datasetLines = "dataset" in spec.join ? lines(path.join(data, spec.join.dataset)) : [];
  const byPrompt = new Map(datasetLines.map((l, i) => [promptKey(JSON.parse(l) as Row), i]));
  const materialized = spec.join.kind === "materialized" ? new Map(lines(path.join(data, spec.rollouts.replace(".jsonl", "_materialized_inputs.jsonl"))).map((l) => [identity(JSON.parse(l) as Row), l])) : undefined;
  rolloutLines.forEach((text, i) => {
    const rollout = JSON.parse(text) as Row;
    let task = rollout._ng_task_index as number | undefined;
    if (task === undefined) task = spec.join.kind === "by-prompt" ? byPrompt.get(promptKey(rollout)) : i;
    if (task === undefined) throw new Error(`${spec.name}: rollout ${i} matches no dataset row`);
    const repeat = (rollout._ng_rollout_index as number | undefined) ?? perTask.get(task) ?? 0;
    perTask.set(task, repeat + 1);
    const stamps: Row = { _ng_task_index: task, _ng_rollout_index: repeat, agent_ref: rollout.agent_ref ?? { name: spec.agent } };
    rollouts.push(stampedLine(text, rollout, stamps));
    stored.push({ key: `${task}-${repeat}`, reward: rollout.reward as number });
    if (materialized) inputs.push(`${materialized.get(`${task}-${repeat}`)!}\n`);
    else if (spec.join.kind === "self") {
      const input: Row = {};
      for (const [k, v] of Object.entries(rollout)) if (!spec.join.outputs.includes(k)) input[k] = v;
      inputs.push(stampedLine(JSON.stringify(input), input, stamps));
    } else {
      const row = datasetLines[task]!;
      inputs.push(stampedLine(row, JSON.parse(row) as Row, stamps));
    }
  });
  return { name: spec.name, selector: spec.selector, stateless: !!spec.stateless, stored, inputsText: inputs.join(""), rolloutsText: rollouts.join("") };
}

function identity(row: Row): string {
  return `${row._ng_task_index}-${row._ng_rollout_index}`;
}

/** Every built-in verifier's published rollouts as reverify inputs. */
export function reverifyCases(): ReverifyCase[] {
  return SPECS.map(build);
}

/** Writes a case's files into `dir` as `rollouts.jsonl` + `rollouts_materialized_inputs.jsonl`; returns their paths. */
export function writeCase(c: ReverifyCase, dir: string): { inputs: string; rollouts: string } {
  fs.mkdirSync(dir, { recursive: true });
  const inputs = path.join(dir, "rollouts_materialized_inputs.jsonl");
  const rollouts = path.join(dir, "rollouts.jsonl");
  fs.writeFileSync(inputs, c.inputsText);
  fs.writeFileSync(rollouts, c.rolloutsText);
  return { inputs, rollouts };
}

/**
 * A bigger run made of `copies` copies of a case, each copy a new block of task indices (copy c, task t →
 * c * tasks + t), so every identity is unique. Returns the two files' text.
 */
export function replicateCase(c: ReverifyCase, copies: number): { inputsText: string; rolloutsText: string; rows: number } {
  const inputs = c.inputsText.split("\n").filter(Boolean);
  const rollouts = c.rolloutsText.split("\n").filter(Boolean);
  const tasks = 1 + Math.max(...inputs.map((l) => (JSON.parse(l) as Row)._ng_task_index as number));
  const shift = (line: string, offset: number) => line.replace(/"_ng_task_index":\s*(\d+)/, (_, t: string) => `"_ng_task_index":${Number(t) + offset}`);
  const inOut: string[] = [];
  const roOut: string[] = [];
  for (let copy = 0; copy < copies; copy++) {
    for (const l of inputs) inOut.push(shift(l, copy * tasks));
    for (const l of rollouts) roOut.push(shift(l, copy * tasks));
  }
  return { inputsText: `${inOut.join("\n")}\n`, rolloutsText: `${roOut.join("\n")}\n`, rows: roOut.length };
}

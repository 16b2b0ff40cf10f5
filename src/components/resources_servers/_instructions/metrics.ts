/** IFEval's four headline numbers over every rollout: prompt- and instruction-level accuracy, strict and loose. */
import type { RolloutTasks } from "../../../servers/resources/index.ts";

type Row = Record<string, unknown>;

function level(rows: Row[], listKey: string, allKey: string): { prompt: number; instruction: number } | undefined {
  let prompts = 0;
  let promptHits = 0;
  let instructions = 0;
  let instructionHits = 0;
  for (const row of rows) {
    const list = row[listKey];
    if (!Array.isArray(list)) continue;
    prompts++;
    if (row[allKey] === true) promptHits++;
    instructions += list.length;
    instructionHits += list.filter((x) => x === true).length;
  }
  if (prompts === 0) return undefined;
  return { prompt: promptHits / prompts, instruction: instructions ? instructionHits / instructions : 0 };
}

/**
 * NeMo Skills' names for IFEval's `evaluation_lib` report: `prompt_strict_accuracy` (share of rollouts that
 * follow every instruction), `instruction_strict_accuracy` (share of instructions followed), and the loose pair.
 */
export function instructionFollowingMetrics(tasks: RolloutTasks): Row {
  const rows = tasks.flat();
  const out: Row = {};
  const strict = level(rows, "follow_instruction_list", "follow_all_instructions");
  const loose = level(rows, "follow_instruction_list_loose", "follow_all_instructions_loose");
  if (strict) Object.assign(out, { prompt_strict_accuracy: strict.prompt, instruction_strict_accuracy: strict.instruction });
  if (loose) Object.assign(out, { prompt_loose_accuracy: loose.prompt, instruction_loose_accuracy: loose.instruction });
  return out;
}

/** The headline: mean reward plus the four accuracies. */
export function instructionFollowingKeyMetrics(agentMetrics: Row): Row {
  const key: Row = {};
  for (const name of ["mean/reward", "prompt_strict_accuracy", "instruction_strict_accuracy", "prompt_loose_accuracy", "instruction_loose_accuracy"]) {
    if (name in agentMetrics) key[name] = agentMetrics[name];
  }
  return key;
}

/** The SciCode step loop's text pieces (NeMo Gym's scicode_agent/step_utils.py): prompt context, code extraction, context-window errors. */
import prefilled from "./prefilled_steps.json" with { type: "json" };

/** The sentinel for a sub-step that could not be generated (the context window ran out); it scores as failed. */
export const OUT_OF_CONTEXT = "_ran_out_of_context_";

/** SciCode's reference code for the few sub-steps its protocol prefills (problem 13 step 6, 62 step 1, 76 step 3): context only, never scored. */
export function prefilledCode(problemId: string, step: number): string | undefined {
  return (prefilled as Record<string, string>)[`${problemId}.${step}`];
}

type Step = Record<string, unknown>;
const described = (step: Step, withBackground: boolean) => (withBackground ? `${step.step_description_prompt}\n${step.step_background}` : String(step.step_description_prompt));

/** `process_problem_steps`: the previous steps with their code, the next step with its header and return line, and the previous code. */
export function problemSteps(subSteps: Step[], current: number, previousCode: (string | null)[], withBackground: boolean): [string, string, string] {
  const lines: string[] = [];
  const code: string[] = [];
  for (let i = 0; i < current; i++) {
    lines.push(described(subSteps[i]!, withBackground), String(previousCode[i]), "------");
    code.push(String(previousCode[i]));
  }
  const next = [described(subSteps[current]!, withBackground), `${subSteps[current]!.function_header}\n\n${subSteps[current]!.return_line}`];
  return [lines.slice(0, -1).join("\n\n"), next.join("\n\n"), code.join("\n")];
}

/** `extract_python_script`: the ```python block (else the first fenced block, else the text), import lines blanked. */
export function extractPythonScript(response: string): string {
  let script = response;
  if (response.includes("```")) script = response.includes("```python") ? response.split("```python")[1]!.split("```")[0]! : response.split("```")[1]!.split("```")[0]!;
  // Python's `^\s*(import .*|from .*\s+import\s+.*)` with MULTILINE: `\s*` may run over blank lines, `.` stops at a newline.
  return script.replace(/^\s*(import [^\n]*|from [^\n]*\s+import\s+[^\n]*)/gm, "");
}

const CONTEXT_WINDOW_MARKERS = [
  "Requested token count exceeds",
  "exceeds maximum input length",
  "should not exceed max_seq_len",
  "reduce the length of the input messages",
  "'max_completion_tokens' is too large",
  "max_tokens must be at least 1, got -",
];

/** Whether a failed model call says the context window is exhausted. */
export const isContextWindowError = (error: unknown) => CONTEXT_WINDOW_MARKERS.some((m) => String(error instanceof Error ? error.message : error).includes(m));

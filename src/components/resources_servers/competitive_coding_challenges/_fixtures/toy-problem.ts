/**
 * A stand-in CCC problem for tests, in NeMo Gym's legacy metadata shape (what `gym eval prepare --benchmark ioi`
 * writes): our own small compile.sh / run.sh in the style of IOI's (g++; `timeout`; `diff -b`; the score on
 * stdout, the verdict on stderr), a Batch grader config, and tests given by the caller.
 */
export const COMPILE_SH = `#!/bin/bash
name=$(sed -n 's/.*"code": *"\\([^"]*\\)".*/\\1/p' graders/grader_config.json)
g++ -DEVAL -std=gnu++17 -O2 -pipe -w -o "graders/$name" "graders/$name.cpp" || { echo "Failed to compile $name" >&2; exit 1; }
echo "Compiled $name from graders/$name.cpp successfully"
`;

export const RUN_SH = `#!/bin/bash
ulimit -s unlimited 2>/dev/null
name=$(sed -n 's/.*"code": *"\\([^"]*\\)".*/\\1/p' graders/grader_config.json)
limit=$(sed -n 's/.*"time_limit": *\\([0-9.]*\\).*/\\1/p' graders/grader_config.json)
CORRECT_OUTPUT=$(cat correct_output.txt); rm -f correct_output.txt
SOLUTION_OUTPUT=$(mktemp)
timeout --preserve-status "$limit" "./graders/$name" < input.txt > "$SOLUTION_OUTPUT"
code=$?
if [ $code -eq 124 ] || [ $code -eq 137 ] || [ $code -eq 143 ]; then echo 0; echo "Time limit exceeded (\${limit}s)" >&2; exit 0; fi
if [ $code -ne 0 ]; then echo 0; echo "Runtime error with exit code $code" >&2; exit 0; fi
if diff -bq <(echo "$CORRECT_OUTPUT") "$SOLUTION_OUTPUT" >/dev/null; then echo 1; echo "Output is correct (diff)" >&2; else echo 0; echo "Output isn't correct (diff)" >&2; fi
`;

export type Tests = Record<string, { input: string; output: string }>;

/** One metadata line: competition → problem → subtasks (each with its own tests and score). */
export function toyMetadataLine(competitionId: string, problemId: string, subtasks: Record<string, { score: number; tests: Tests }>, timeLimit = 1): string {
  const graderConfig = JSON.stringify({ task_type: "Batch", code: problemId, time_limit: timeLimit, memory_limit: 268435456 });
  const problem: Record<string, unknown> = {};
  for (const [name, { score, tests }] of Object.entries(subtasks)) {
    problem[name] = { tests, subtask_score: score, score_precision: 0, run: RUN_SH, compile: COMPILE_SH, grader_files: [["graders/grader_config.json", graderConfig]] };
  }
  return JSON.stringify({ competition_id: competitionId, metadata: { [problemId]: problem } });
}

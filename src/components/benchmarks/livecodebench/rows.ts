/**
 * LiveCodeBench rows for code_gen, as NeMo Gym's `prepare_from_hf_raw` writes them: public + private tests decoded
 * into `verifier_metadata.unit_tests`, the contest-date window `[from, to)`, and Skills' prompt fields.
 */
import { decodeTestCases } from "./pickle.ts";

type Row = Record<string, unknown>;

const WITH_STARTER = "You will use the following starter code to write the solution to the problem and enclose your code within delimiters.";
const WITHOUT_STARTER =
  "Read the inputs from stdin solve the problem and write the answer to stdout (do not directly test on the sample inputs). Enclose your code within delimiters as follows. Ensure that when the python program runs, it reads the inputs, runs the algorithm and writes output to STDOUT.";

/** The files of `livecodebench/code_generation_lite` that make up a release (release_vN = test.jsonl … testN.jsonl). */
export function releaseFiles(release: string): string[] {
  const n = Number(/^release_v(\d+)$/.exec(release)?.[1]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`unknown LiveCodeBench release ${JSON.stringify(release)} (expected release_v1 … release_v6)`);
  return Array.from({ length: n }, (_, i) => (i === 0 ? "test.jsonl" : `test${i + 1}.jsonl`));
}

/** `{unit_tests, difficulty}` of one upstream example (public tests first, then private). */
export function canonicalTests(example: Row): { unit_tests: { inputs: string[]; outputs: string[]; fn_name: string | null }; difficulty: unknown } {
  const cases = [...decodeTestCases(example.public_test_cases), ...decodeTestCases(example.private_test_cases)];
  let meta = example.metadata ?? {};
  if (typeof meta === "string") meta = meta ? JSON.parse(meta) : {};
  return {
    unit_tests: { inputs: cases.map((c) => c.input), outputs: cases.map((c) => c.output), fn_name: ((meta as Row).func_name as string) || null },
    // Python's dict.get(key, default): a present null stays null.
    difficulty: "difficulty" in example ? example.difficulty : "unknown",
  };
}

/** One upstream example → one benchmark row, or null when its contest date is outside `[from, to)`. */
export function livecodebenchRow(example: Row, window: { from?: string; to?: string }): Row | null {
  const date = String(example.contest_date ?? "");
  if (window.from && date < window.from) return null;
  if (window.to && date >= window.to) return null;
  const { unit_tests, difficulty } = canonicalTests(example);
  const starter = String(example.starter_code ?? "");
  return {
    question_content: example.question_content,
    verifier_metadata: { problem_id: "question_id" in example ? example.question_id : "", difficulty, unit_tests },
    formatting_message: starter ? WITH_STARTER : WITHOUT_STARTER,
    starter_code: starter ? `\`\`\`python\n${starter}\n\`\`\`` : "```python\n# YOUR CODE HERE\n```",
  };
}

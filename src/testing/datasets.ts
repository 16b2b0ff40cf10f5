/** Generated datasets for end-to-end tests: mcqa-shaped rows (the mock model answers them with a letter). */
import { writeFileSync } from "node:fs";

const LETTERS = ["A", "B", "C", "D"];

/** Writes `tasks` distinct multiple-choice rows, each with its expected letter. */
export function writeMcqaDataset(path: string, tasks: number): void {
  let text = "";
  for (let i = 0; i < tasks; i++) {
    const options = LETTERS.map((letter, k) => ({ [letter]: `option ${k} of question ${i}` }));
    const prompt = `Answer with the letter inside \\boxed{}. Question ${i}: which option is right?\n${LETTERS.map((l, k) => `${l}: option ${k} of question ${i}`).join("\n")}`;
    const row = {
      responses_create_params: { input: [{ role: "user", content: prompt }] },
      options,
      expected_answer: LETTERS[(i * 7) % 4],
      grading_mode: "strict_single_letter_boxed",
      uuid: `task-${i}`,
    };
    text += `${JSON.stringify(row)}\n`;
  }
  writeFileSync(path, text);
}

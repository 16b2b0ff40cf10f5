/** Writes a rollouts-shaped JSONL file of about `mb` megabytes (prompt, response with output items and usage, reward). */
import { closeSync, existsSync, openSync, statSync, writeSync } from "node:fs";

export function writeRolloutsFile(path: string, mb: number, repeats = 8): { rows: number; bytes: number } {
  if (existsSync(path) && Math.abs(statSync(path).size / 2 ** 20 - mb) < mb * 0.05) {
    const bytes = statSync(path).size;
    return { rows: -1, bytes };
  }
  const fd = openSync(path, "w");
  let bytes = 0;
  let rows = 0;
  let buffer = "";
  for (let task = 0; bytes < mb * 2 ** 20; task++) {
    for (let r = 0; r < repeats; r++) {
      const row = {
        responses_create_params: { input: [{ role: "user", content: `Question ${task}: which option is right? A: first B: second C: third D: fourth. Think step by step.` }], temperature: 1.0 },
        response: {
          id: `resp_${task}_${r}`,
          object: "response",
          created_at: 1760000000 + task,
          model: "policy",
          output: [
            { type: "reasoning", id: `rs_${task}_${r}`, summary: [{ type: "summary_text", text: "Let me think about the options one at a time before answering.".repeat(2) }] },
            { type: "message", id: `msg_${task}_${r}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: `The answer is ${"ABCD"[(task + r) % 4]}. \\boxed{${"ABCD"[(task + r) % 4]}}`, annotations: [] }] },
          ],
          usage: { input_tokens: 120 + (task % 17), output_tokens: 300 + r, total_tokens: 420 + (task % 17) + r },
        },
        reward: (task + r) % 3 === 0 ? 1.0 : 0.0,
        expected_answer: "ABCD"[task % 4],
        extracted_answer: "ABCD"[(task + r) % 4],
        agent_ref: { name: "mcqa_simple_agent" },
        _ng_task_index: task,
        _ng_rollout_index: r,
      };
      const line = `${JSON.stringify(row)}\n`;
      buffer += line;
      bytes += line.length;
      rows++;
      if (buffer.length > 1 << 20) {
        writeSync(fd, buffer);
        buffer = "";
      }
    }
  }
  writeSync(fd, buffer);
  closeSync(fd);
  return { rows, bytes };
}

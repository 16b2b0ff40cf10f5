import { expect, test } from "bun:test";
import { Span } from "../../jsonl/rows.ts";
import { RowPrompts } from "./prompts.ts";

const encoder = new TextEncoder();
/** A row as the reader gives it: the prompt a Span of its bytes. */
const row = (input: unknown) => {
  const bytes = encoder.encode(JSON.stringify(input));
  return { row: { responses_create_params: { input: new Span(0, bytes.length) } }, bytes };
};
const turns = (n: number, extra = 0) => Array.from({ length: n + extra }, (_, k) => ({ role: "user", content: `turn ${k}` }));

test("a rollout answers its input row when the input's items come first, at every input length a run holds", () => {
  for (const lengths of [[2], [1, 2, 3], Array.from({ length: 20 }, (_, k) => k + 1)]) {
    const inputs = new RowPrompts();
    for (const n of lengths) inputs.add(row(turns(n)).row, row(turns(n)).bytes);
    const rollouts = new RowPrompts(inputs);
    lengths.forEach((n, i) => {
      const played = row(turns(n, 3));
      rollouts.add(played.row, played.bytes);
      expect(rollouts.answers(i, inputs, i)).toBe(true);
    });
    // A rollout shorter than its input, or of another prompt, does not answer it.
    const short = row(turns(lengths.at(-1)! - 1));
    rollouts.add(short.row, short.bytes);
    expect(rollouts.answers(lengths.length, inputs, lengths.length - 1)).toBe(false);
    const other = row([{ role: "user", content: "another" }, ...turns(30)]);
    rollouts.add(other.row, other.bytes);
    expect(rollouts.answers(lengths.length + 1, inputs, 0)).toBe(false);
  }
});

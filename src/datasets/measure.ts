/** Reads one dataset file line by line (each line `num_repeats` times, aaabbb) into collate's DatasetState. */
import { readLines } from "../jsonl/lines.ts";
import { DatasetState } from "./dataset-metrics.ts";

/** A source of raw dataset lines: a file path, or text already in memory (a built-in inside the binary). */
export type LineSource = { path: string } | { text: string; name: string };

/** Yields the raw lines of a source, numbered from 1. */
export async function* sourceLines(source: LineSource): AsyncGenerator<{ text: string; line: number }> {
  if ("path" in source) {
    for await (const { text, line } of readLines(source.path)) yield { text, line };
    return;
  }
  const lines = source.text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (let i = 0; i < lines.length; i++) yield { text: lines[i]!.replace(/\r$/, ""), line: i + 1 };
}

/** Measures every line of a dataset, in constant memory (one line at a time, as NeMo Gym streams it). */
export async function measureDataset(source: LineSource, numRepeats = 1): Promise<DatasetState> {
  const state = new DatasetState();
  const name = "path" in source ? source.path : source.name;
  let index = 0;
  for await (const { text, line } of sourceLines(source)) {
    if (text.trim() === "") continue;
    for (let r = 0; r < numRepeats; r++) state.observeLine(index++, text, `${name}:${line}`);
  }
  return state;
}

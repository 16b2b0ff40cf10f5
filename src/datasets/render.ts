/** `gym dataset render`: stream a raw JSONL through a prompt config into rows with `responses_create_params.input` filled in. */
import { mkdirSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { GymError } from "../errors.ts";
import { readJsonl } from "../jsonl/read.ts";
import { stringifyPython } from "../metrics/pyjson.ts";
import { openAppendSink } from "../runtime/files.ts";
import { renameSync } from "node:fs";
import { applyPrompt, hasPromptInput, mutualExclusionError, type PromptConfig } from "./prompt.ts";

export interface RenderResult {
  rows: number;
  output: string;
}

/**
 * Renders every row of `input` ("-" = stdin) to `output` ("-" = stdout), one row at a time. Each output
 * row gains `prompt_config_used` (the resolved template path). Rows that already have an input are all
 * collected and reported together, as NeMo Gym does; a file output is then left untouched (rows go to a
 * temporary file renamed at the end), while stdout stops at the first such row.
 */
export async function renderDataset(input: string, prompt: PromptConfig, output: string): Promise<RenderResult> {
  const temp = output === "-" ? "-" : join(dirname(output), `.${basename(output)}.${process.pid}.render.tmp`);
  // The folder made for the output goes again when rendering fails: an error leaves nothing behind.
  const madeDir = output === "-" ? undefined : mkdirSync(dirname(resolve(output)), { recursive: true });
  const sink = openAppendSink(temp, { truncate: true });
  const violations: number[] = [];
  let rows = 0;
  let ok = false;
  try {
    for await (const { value, source, line } of readJsonl(input)) {
      const index = rows++;
      if (hasPromptInput(value)) violations.push(index);
      if (violations.length > 0) continue;
      const rendered = applyPrompt(value, prompt, `${source}:${line}`);
      rendered.prompt_config_used = prompt.path;
      await sink.write(`${stringifyPython(rendered, { spaced: true, ensureAscii: true })}\n`);
    }
    if (violations.length > 0) throw mutualExclusionError(violations, input === "-" ? "<stdin>" : input);
    if (rows === 0) throw new GymError("E_INPUT_EMPTY", `${input === "-" ? "<stdin>" : input} holds no rows (the file is empty or blank): there is nothing to render.`, { hint: "Pass a JSONL file with one JSON object per line; nothing was written." });
    ok = true;
  } finally {
    await sink.close();
    if (temp !== "-") {
      if (ok) renameSync(temp, output);
      else {
        rmSync(temp, { force: true });
        if (madeDir) rmSync(madeDir, { recursive: true, force: true });
      }
    }
  }
  return { rows, output };
}

/**
 * ruler: the rows NeMo Gym's benchmarks/ruler/prepare_utils.py writes, read from the output of NVIDIA RULER's own
 * generator (`scripts/data/prepare.py --save_dir <dir> --prepare_for_ns …`: one `<task>/test.jsonl` per task) rather
 * than a port of it: the generator needs the model's Hugging Face tokenizer, NLTK, wonderwords and RULER's downloaded
 * corpora. Each sample becomes one user message (plus the stripped answer prefix and a per-task max_output_tokens for
 * the text-completion formats), with `outputs`, `length` and the task name as `subset`.
 * `prepare_script_args`: ruler_data_dir (required), data_format (chat, default, base; default chat).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { GymError } from "../../../errors.ts";
import { pyStrip } from "../../resources_servers/_python/text.ts";
import type { Row } from "../_hub-rows.ts";
import { writePythonJsonl } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";

const OUTPUT_TOKENS: Record<string, number> = { niah: 128, vt: 30, cwe: 120, fwe: 50, qa: 32 };
const FORMATS = ["chat", "default", "base"];
const HOW = "Generate the tasks with NVIDIA RULER (https://github.com/NVIDIA/RULER), in scripts/data: python prepare.py --save_dir <dir> --benchmark synthetic --subset test --task <task> --tokenizer_type hf --tokenizer_path <model> --model_template_type base --prepare_for_ns --num_samples 100 --max_seq_length <length>; then +prepare_script_args={ruler_data_dir: <dir>}";

/** `_to_gym_sample`: one RULER sample as a gym row. */
export function rulerRow(sample: Row, subset: string, format: string): Row {
  const message: Row = { role: "user", content: sample.input };
  const params: Row = { input: [message] };
  if (format !== "chat") {
    message.content = `${message.content}${format === "default" ? "" : "\n"}${pyStrip(String(sample.answer_prefix))}`;
    const family = subset.split("_")[0]!;
    if (!(family in OUTPUT_TOKENS)) throw new GymError("E_INPUT_SCHEMA", `RULER task '${subset}' is not one NeMo Gym knows (its family '${family}' has no output-token budget).`, { hint: `Known families: ${Object.keys(OUTPUT_TOKENS).join(", ")}.` });
    params.max_output_tokens = OUTPUT_TOKENS[family];
  }
  return { responses_create_params: params, outputs: sample.outputs, length: sample.length, subset };
}

export async function prepare(context: PrepareContext): Promise<string> {
  const format = String(context.args.data_format ?? "chat");
  if (!FORMATS.includes(format)) throw new GymError("E_USAGE", `Unsupported RULER data format: ${format} (one of ${FORMATS.join(", ")}).`);
  if (typeof context.args.ruler_data_dir !== "string") throw new GymError("E_USAGE", "ruler needs prepare_script_args.ruler_data_dir: the folder RULER's generator wrote (<task>/test.jsonl).", { hint: HOW });
  const base = resolve(context.args.ruler_data_dir);
  const dir = existsSync(join(base, "ruler_data")) ? join(base, "ruler_data") : base;
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new GymError("E_INPUT_NOT_FOUND", `${dir} is not a folder.`, { hint: HOW });
  // Python's iterdir() order is the file system's; sorted here, so a prepare is reproducible.
  const tasks = readdirSync(dir).filter((name) => statSync(join(dir, name)).isDirectory()).sort();
  if (tasks.length === 0) throw new GymError("E_INPUT_EMPTY", `${dir} holds no task folders (<task>/test.jsonl).`, { hint: HOW });
  const rows: Row[] = [];
  for (const task of tasks) {
    const file = join(dir, task, "test.jsonl");
    if (!existsSync(file)) throw new GymError("E_INPUT_NOT_FOUND", `${file} does not exist (every task folder needs its test.jsonl).`, { hint: HOW });
    for (const [i, line] of readFileSync(file, "utf8").split("\n").entries()) {
      if (line.trim() === "") continue;
      let sample: Row;
      try {
        sample = JSON.parse(line) as Row;
      } catch (error) {
        throw new GymError("E_INPUT_JSON", `${file}:${i + 1}: not JSON: ${(error as Error).message}`);
      }
      for (const key of ["input", "outputs", "length", ...(format === "chat" ? [] : ["answer_prefix"])]) {
        if (!Object.hasOwn(sample, key)) throw new GymError("E_INPUT_SCHEMA", `${file}:${i + 1}: no field '${key}' (RULER's generator writes input, outputs, length, answer_prefix).`, { hint: HOW });
      }
      rows.push(rulerRow(sample, task, format));
    }
  }
  const count = writePythonJsonl(context.outputPath, rows, true);
  context.log(`Wrote ${count} samples to ${context.outputPath}`);
  return context.outputPath;
}

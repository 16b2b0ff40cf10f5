/** `gym dataset render`: apply a prompt config to a raw JSONL (materialize prompts for a preview or for training). */
import { defineGymCommand, allValues } from "../_command.ts";
import { componentRoots } from "../../config/roots.ts";
import { loadPromptConfig } from "../../datasets/prompt.ts";
import { renderDataset } from "../../datasets/render.ts";
import { guardOutputs } from "../../outputs/guard.ts";

export default defineGymCommand({
  meta: { name: "dataset render", description: "Materialize prompts: fill responses_create_params.input of each row from a prompt config" },
  args: {
    input: { type: "string", alias: "i", description: "Raw JSONL rows (no responses_create_params.input); - for stdin", required: true },
    "prompt-config": { type: "string", description: "Prompt YAML with `user` (and optional `system`) templates using {field} placeholders", required: true },
    output: { type: "string", alias: "o", description: "Where to write the rendered JSONL; - for stdout", required: true },
    "search-dir": { type: "string", description: "Extra component root searched for the prompt config (repeatable)" },
  },
  examples: ["gym dataset render --input raw.jsonl --prompt-config prompt.yaml --output preview.jsonl", "cat raw.jsonl | gym dataset render -i - --prompt-config benchmarks/prompts/generic/math.yaml -o -"],
  async run({ args, rawArgs }) {
    const roots = componentRoots({ searchDirs: allValues(rawArgs, "search-dir") });
    const prompt = await loadPromptConfig(args["prompt-config"], roots);
    guardOutputs([{ path: args.input, role: "--input" }, { path: prompt.path, role: "--prompt-config" }], [{ path: args.output, role: "--output" }], { command: "gym dataset render", suggestion: "Write the rendered rows to a new file, e.g. --output rendered.jsonl." });
    const result = await renderDataset(args.input, prompt, args.output);
    process.stderr.write(`Materialized ${result.rows} rows to ${result.output === "-" ? "<stdout>" : result.output}\n`);
  },
});

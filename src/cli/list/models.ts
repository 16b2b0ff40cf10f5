/** `gym list models [NAME]`: List --model-type values, or inspect one. */
import { defineGymCommand } from "../_command.ts";
import { listArgs, runListing } from "./_shared.ts";

export default defineGymCommand({
  meta: { name: "list models", description: "List --model-type values, or inspect one" },
  args: listArgs,
  examples: ["gym list models", "gym list models --json"],
  run({ args, rawArgs, json }) {
    return runListing("models", { name: args.name, json, rawArgs });
  },
});

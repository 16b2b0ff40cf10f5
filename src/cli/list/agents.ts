/** `gym list agents [NAME]`: List agent harnesses and how each composes, or inspect one. */
import { defineGymCommand } from "../_command.ts";
import { listArgs, runListing } from "./_shared.ts";

export default defineGymCommand({
  meta: { name: "list agents", description: "List agent harnesses and how each composes, or inspect one" },
  args: listArgs,
  examples: ["gym list agents", "gym list agents --json"],
  run({ args, rawArgs, json }) {
    return runListing("agents", { name: args.name, json, rawArgs });
  },
});

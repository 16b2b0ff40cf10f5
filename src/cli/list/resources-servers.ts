/** `gym list resources-servers [NAME]`: List --resources-server values, or inspect one. */
import { defineGymCommand } from "../_command.ts";
import { listArgs, runListing } from "./_shared.ts";

export default defineGymCommand({
  meta: { name: "list resources-servers", description: "List --resources-server values, or inspect one" },
  args: listArgs,
  examples: ["gym list resources-servers", "gym list resources-servers --json"],
  run({ args, rawArgs, json }) {
    return runListing("resources-servers", { name: args.name, json, rawArgs });
  },
});

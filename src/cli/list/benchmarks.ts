/** `gym list benchmarks [NAME]`: List the benchmarks (their --benchmark values), or inspect one. */
import { defineGymCommand } from "../_command.ts";
import { listArgs, runListing } from "./_shared.ts";

export default defineGymCommand({
  meta: { name: "list benchmarks", description: "List the benchmarks (their --benchmark values), or inspect one" },
  args: listArgs,
  examples: ["gym list benchmarks", "gym list benchmarks --json"],
  run({ args, rawArgs, json }) {
    return runListing("benchmarks", { name: args.name, json, rawArgs });
  },
});

/** `gym search [TYPE] QUERY`: fuzzy matches in the unified catalog, or in one component type. */
import { GymError } from "../errors.ts";
import { defineGymCommand } from "./_command.ts";
import { runListing } from "./list/_shared.ts";

const TYPES = ["benchmarks", "environments", "agents", "models", "resources-servers"] as const;

export default defineGymCommand({
  meta: { name: "search", description: "Search the environment catalog, or one component type, by fuzzy match" },
  args: {
    first: { type: "positional", required: true, description: "TYPE (benchmarks, environments, agents, models, resources-servers) or the QUERY", valueHint: "TYPE|QUERY" },
    query: { type: "positional", required: false, description: "The query when a TYPE is given", valueHint: "QUERY" },
    json: { type: "boolean", description: "Print JSON instead of a table" },
    "search-dir": { type: "string", description: "Extra root with your own Gym-layout components (repeatable)", valueHint: "DIR" },
  },
  examples: ["gym search math", "gym search benchmarks math", "gym search models vllm --json"],
  run({ args, rawArgs, json }) {
    if (args.query === undefined) return runListing("environments", { query: args.first, json, rawArgs });
    if (!(TYPES as readonly string[]).includes(args.first)) {
      throw new GymError("E_BAD_FLAG_VALUE", `Unknown type '${args.first}'.`, { hint: `TYPE is one of ${TYPES.join(", ")}; or give only a QUERY to search the whole catalog.` });
    }
    return runListing(args.first as (typeof TYPES)[number], { query: args.query, json, rawArgs });
  },
});

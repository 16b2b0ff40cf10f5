/** `gym env schema --resources-server NAME`: print the server's task-data JSON Schema (task_data.ts, or its declared row fields). */
import { defineGymCommand, allValues } from "../_command.ts";
import { GymError } from "../../errors.ts";

export default defineGymCommand({
  meta: { name: "env schema", description: "Print a resources server's task-data schema as JSON Schema" },
  args: {
    "resources-server": { type: "string", description: "The server folder name under resources_servers/", valueHint: "NAME", required: true },
    "search-dir": { type: "string", description: "Extra root to search for the server (repeatable)", valueHint: "DIR" },
  },
  examples: [
    "gym env schema --resources-server example_multi_step",
    "gym env schema --resources-server my_server --search-dir .",
    "",
    "A server's task_data.ts (a valibot `taskData`) wins; otherwise the row fields its /seed_session and /verify declare.",
  ],
  async run({ args, rawArgs }) {
    const { findTaskDataSchema } = await import("../../catalog/task-data.ts");
    const name = args["resources-server"];
    const found = await findTaskDataSchema(name, allValues(rawArgs, "search-dir"));
    if (!found) {
      throw new GymError("E_CHECK_FAILED", `Resources server '${name}' does not export a task-data schema (no task_data.ts, and its routes declare no row fields).`, {
        hint: `Add resources_servers/${name}/task_data.ts exporting \`taskData\` (a valibot schema); \`gym env init --resources-server\` writes one.`,
      });
    }
    process.stdout.write(`${JSON.stringify({ title: `${name} task data`, ...found.schema }, null, 2)}\n`);
  },
});

/** `gym env schema --resources-server NAME`: print the server's task-data JSON Schema, derived from its valibot `taskData`. */
import { defineGymCommand, allValues } from "../_command.ts";
import { GymError } from "../../errors.ts";

export default defineGymCommand({
  meta: { name: "env schema", description: "Print a resources server's task-data schema as JSON Schema" },
  args: {
    "resources-server": { type: "string", description: "The server folder name under resources_servers/", valueHint: "NAME", required: true },
    "search-dir": { type: "string", description: "Extra root to search for the server (repeatable)", valueHint: "DIR" },
  },
  examples: ["gym env schema --resources-server my_server --search-dir ."],
  async run({ args, rawArgs }) {
    const { findTaskDataModule } = await import("../../catalog/task-data.ts");
    const { toJsonSchema } = await import("../../catalog/json-schema.ts");
    const name = args["resources-server"];
    const found = await findTaskDataModule(name, allValues(rawArgs, "search-dir"));
    if (!found) {
      throw new GymError("E_CHECK_FAILED", `Resources server '${name}' does not export a task-data schema.`, {
        hint: `Add resources_servers/${name}/task_data.ts exporting \`taskData\` (a valibot schema); \`gym env init --resources-server\` writes one.`,
      });
    }
    process.stdout.write(`${JSON.stringify({ title: `${name} task data`, ...toJsonSchema(found.schema as never) }, null, 2)}\n`);
  },
});

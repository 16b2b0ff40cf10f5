/** `gym dataset rm`: delete a dataset from the GitLab registry, after a confirmation (or --yes). */
import { defineGymCommand } from "../_command.ts";
import { GymError } from "../../errors.ts";
import { storageArgs } from "./_storage-args.ts";

async function confirm(question: string): Promise<boolean> {
  process.stderr.write(`${question} [y/N] `);
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) return /^y(es)?$/i.test(chunk.toString().trim());
  return false;
}

export default defineGymCommand({
  meta: { name: "dataset rm", description: "Delete a dataset from the GitLab registry (asks first; --yes for scripts)" },
  args: {
    name: storageArgs.name,
    revision: { type: "string", description: "Only this version (default: every version)", valueHint: "VERSION" },
    yes: { type: "boolean", alias: "y", description: "Delete without asking" },
    json: { type: "boolean", description: "Print what was deleted as JSON" },
  },
  examples: ["gym dataset rm --name old_dataset", "gym dataset rm --name old_dataset --revision 0.0.1 --yes"],
  async run({ args, json }) {
    const { datasetRmPlan, datasetRm, storageSettings } = await import("../../datasets/storage/index.ts");
    const settings = await storageSettings();
    const plan = await datasetRmPlan(args.name, args.revision, settings);
    const list = plan.map((p) => `${p.name}/${p.version}`).join(", ");
    if (!args.yes) {
      if (!process.stdin.isTTY) throw new GymError("E_USAGE", `Refusing to delete ${list} without a confirmation.`, { hint: "Pass --yes to delete from a script." });
      if (!(await confirm(`Delete ${list} from GitLab project ${settings.gitlabProjectId}?`))) {
        process.stderr.write("Nothing deleted.\n");
        return;
      }
    }
    await datasetRm(plan, settings);
    if (json) process.stdout.write(`${JSON.stringify({ deleted: plan })}\n`);
    else process.stderr.write(`Deleted ${list}\n`);
  },
});

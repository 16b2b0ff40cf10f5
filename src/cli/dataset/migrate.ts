/** `gym dataset migrate`: upload a JSONL to Hugging Face, check it landed, then delete the dataset from GitLab. */
import { defineGymCommand } from "../_command.ts";
import { storageArgs } from "./_storage-args.ts";

export default defineGymCommand({
  meta: { name: "dataset migrate", description: "Move a JSONL dataset from GitLab to Hugging Face (uploads, checks, then deletes from GitLab)" },
  args: {
    name: storageArgs.name,
    "repo-id": storageArgs["repo-id"],
    revision: storageArgs.revision,
    input: { type: "string", alias: "i", description: "The local JSONL to upload", valueHint: "FILE" },
    json: { type: "boolean", description: "Print the result as JSON" },
  },
  examples: ["gym dataset migrate --name my_dataset --input data/train.jsonl --revision 0.0.1"],
  async run({ args, json }) {
    const { datasetMigrate, storageSettings } = await import("../../datasets/storage/index.ts");
    const result = await datasetMigrate({ storage: "hf", input: args.input, name: args.name, repoId: args["repo-id"], revision: args.revision }, await storageSettings());
    if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else process.stderr.write(`Uploaded to Hugging Face ${result.location}; deleted ${result.deleted.map((p) => `${p.name}/${p.version}`).join(", ")} from GitLab\n`);
  },
});

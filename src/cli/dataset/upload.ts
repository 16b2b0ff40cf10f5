/** `gym dataset upload`: a local JSONL to Hugging Face (default) or GitLab. */
import { defineGymCommand } from "../_command.ts";
import { storageArgs } from "./_storage-args.ts";

export default defineGymCommand({
  meta: { name: "dataset upload", description: "Upload a prepared JSONL dataset to Hugging Face (default) or GitLab" },
  args: {
    ...storageArgs,
    input: { type: "string", alias: "i", description: "The JSONL file to upload", valueHint: "FILE" },
    json: { type: "boolean", description: "Print the result as JSON" },
  },
  examples: ["gym dataset upload --name my_dataset --input data/train.jsonl --revision 0.0.1", "gym dataset upload --storage gitlab --name my_dataset --input data/train.jsonl --revision 0.0.1"],
  async run({ args, json }) {
    const { datasetUpload, checkStorage, storageSettings } = await import("../../datasets/storage/index.ts");
    const storage = checkStorage(args.storage);
    const result = await datasetUpload({ storage, input: args.input, name: args.name, repoId: args["repo-id"], revision: args.revision }, await storageSettings());
    if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else process.stderr.write(`Uploaded ${result.file} to ${storage === "hf" ? "Hugging Face" : "GitLab"} ${result.location}\nDownload it with:\n  ${result.download}\n`);
  },
});

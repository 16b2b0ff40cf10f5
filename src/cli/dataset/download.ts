/** `gym dataset download`: one file of a dataset from Hugging Face (default) or GitLab, checked and renamed into place. */
import { defineGymCommand } from "../_command.ts";
import { storageArgs } from "./_storage-args.ts";

export default defineGymCommand({
  meta: { name: "dataset download", description: "Download a dataset file from Hugging Face (default) or GitLab" },
  args: {
    ...storageArgs,
    artifact: { type: "string", description: "The file in the dataset (a .parquet artifact to a .jsonl --output is converted)", valueHint: "FILE" },
    output: { type: "string", alias: "o", description: "Where to write it (default: the artifact's name here)", valueHint: "FILE" },
    json: { type: "boolean", description: "Print the result as JSON" },
  },
  examples: [
    "gym dataset download --repo-id NVIDIA/NeMo-Gym-Math-example_multi_step-v1 --artifact train.jsonl --output data/train.jsonl",
    "gym dataset download --storage gitlab --name example_multi_step --revision 0.0.1 --artifact train.jsonl --output data/train.jsonl",
  ],
  async run({ args, json }) {
    const { datasetDownload, checkStorage, storageSettings } = await import("../../datasets/storage/index.ts");
    const storage = checkStorage(args.storage);
    const result = await datasetDownload({ storage, repoId: args["repo-id"], name: args.name, artifact: args.artifact, revision: args.revision, output: args.output }, await storageSettings());
    if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else process.stderr.write(`Downloaded ${args.artifact} to ${result.output}${result.rows !== undefined ? ` (${result.rows} rows)` : ""}\n`);
  },
});

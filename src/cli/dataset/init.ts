/** `gym dataset init <name>`: scaffold a Harbor dataset folder (dataset.toml and one task). */
import { defineGymCommand } from "../_command.ts";

export default defineGymCommand({
  meta: { name: "dataset init", description: "Scaffold a dataset in the Harbor task format: dataset.toml and one task with an instruction, a verifier and a reference solution" },
  args: {
    name: { type: "positional", description: "Folder to create; its name is the dataset's (a bare name becomes local/<name>)", required: true, valueHint: "NAME" },
    image: { type: "string", description: "The task's [environment] docker_image and Dockerfile FROM (default python:3.12-slim)", valueHint: "IMAGE" },
  },
  examples: ["gym dataset init my-dataset --image ubuntu:24.04   # dataset.toml names it local/my-dataset", "gym dataset validate my-dataset --sandbox local"],
  async run({ args, json }) {
    const { scaffoldDataset } = await import("../../datasets/harbor/scaffold.ts");
    const made = scaffoldDataset({ target: args.name, image: args.image ?? "python:3.12-slim" });
    if (json) process.stdout.write(`${JSON.stringify(made)}\n`);
    else process.stdout.write(`Created ${made.root}\n${made.files.map((f) => `  ${f}`).join("\n")}\nNext: gym dataset validate ${args.name} --sandbox local\n`);
  },
});

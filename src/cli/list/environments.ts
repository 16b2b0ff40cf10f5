/** `gym list environments [NAME]`: the unified environment and benchmark catalog (manifests first), or inspect one entry. */
import { defineGymCommand } from "../_command.ts";
import { listArgs, runListing } from "./_shared.ts";

export default defineGymCommand({
  meta: { name: "list environments", description: "List the unified environment and benchmark catalog, or inspect one entry" },
  args: {
    ...listArgs,
    kind: { type: "enum", options: ["environment", "benchmark"], description: "Only entries of this kind" },
    domain: { type: "string", description: "Only entries with this domain (e.g. math)" },
    modality: { type: "string", description: "Only entries with this modality" },
    licensing: { type: "string", description: "Only entries with this licensing" },
    status: { type: "enum", options: ["experimental", "no-manifest"], description: "Only manifest-backed (experimental) or legacy (no-manifest) entries" },
    lifecycle: { type: "enum", options: ["active", "deprecated"], description: "Only entries with this lifecycle" },
  },
  examples: ["gym list environments", "gym list environments --kind benchmark --domain math", "gym list environments --json | jq '.[].name'"],
  run({ args, rawArgs, json }) {
    const filters = { kind: args.kind, domain: args.domain, modality: args.modality, licensing: args.licensing, status: args.status, lifecycle: args.lifecycle };
    return runListing("environments", { name: args.name, json, rawArgs, kind: args.kind, filters });
  },
});

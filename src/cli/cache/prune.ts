/** `gym cache prune`: drop expired answers (and, with --older-than, every answer older than that). */
import { jsonArg } from "../_args.ts";
import { defineGymCommand } from "../_command.ts";

export default defineGymCommand({
  meta: { name: "cache prune", description: "Remove expired responses from the cache (or all older than --older-than)" },
  args: {
    "older-than": { type: "string", description: "Also remove answers created longer ago than this, e.g. 3d, 12h", valueHint: "DURATION" },
    ...jsonArg,
  },
  examples: ["gym cache prune", "gym cache prune --older-than 1d"],
  async run({ args, json }) {
    const { parseDuration } = await import("../../servers/calls/cache/index.ts");
    const olderThan = typeof args["older-than"] === "string" ? parseDuration(args["older-than"], "--older-than") : undefined;
    const { openCacheStore } = await import("./_open.ts");
    const { path, store } = await openCacheStore(true);
    const removed = store ? store.prune(Date.now(), olderThan) : 0;
    store?.close();
    if (json) process.stdout.write(`${JSON.stringify({ path, removed })}\n`);
    else process.stderr.write(`Removed ${removed} responses from ${path}.\n`);
    return 0;
  },
});

/** `gym cache list`: what the response cache holds, per model and endpoint. */
import { jsonArg } from "../_args.ts";
import { defineGymCommand } from "../_command.ts";

export default defineGymCommand({
  meta: { name: "cache list", description: "Show the response cache: entries and size per model and endpoint" },
  args: { ...jsonArg },
  examples: ["gym cache list", "gym cache list --json | jq '.models[] | {model, entries}'"],
  async run({ json }) {
    const { openCacheStore, formatBytes } = await import("./_open.ts");
    const { statSync } = await import("node:fs");
    const { path, store } = await openCacheStore(true);
    const models = store ? store.summary() : [];
    store?.close();
    const fileBytes = store ? ["", "-wal"].reduce((sum, suffix) => sum + (statSync(path + suffix, { throwIfNoEntry: false })?.size ?? 0), 0) : 0;
    const entries = models.reduce((sum, m) => sum + m.entries, 0);
    if (json) {
      process.stdout.write(`${JSON.stringify({ path, entries, file_bytes: fileBytes, models })}\n`);
      return 0;
    }
    const lines = [`${path}: ${entries} entries, ${formatBytes(fileBytes)} on disk`];
    for (const m of models) {
      lines.push(`  ${m.model || "(no model)"}  ${m.base_url}  ${m.entries} entries, ${formatBytes(m.bytes)}${m.expired ? `, ${m.expired} expired` : ""}, newest ${m.newest}`);
    }
    process.stdout.write(`${lines.join("\n")}\n`);
    return 0;
  },
});

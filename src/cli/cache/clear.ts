/** `gym cache clear`: empty the response cache (or one model's part of it), after a confirmation or --yes. */
import { GymError } from "../../errors.ts";
import { jsonArg } from "../_args.ts";
import { defineGymCommand } from "../_command.ts";

async function confirm(question: string): Promise<boolean> {
  process.stderr.write(`${question} [y/N] `);
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) return /^y(es)?$/i.test(chunk.toString().trim());
  return false;
}

export default defineGymCommand({
  meta: { name: "cache clear", description: "Remove every cached response, or one model's (asks first; --yes for scripts)" },
  args: {
    model: { type: "string", description: "Only the responses of this model (as `gym cache list` names it)", valueHint: "NAME" },
    yes: { type: "boolean", alias: "y", description: "Remove without asking" },
    ...jsonArg,
  },
  examples: ["gym cache clear --yes", "gym cache clear --model gpt-4.1-mini"],
  async run({ args, json }) {
    const { openCacheStore } = await import("./_open.ts");
    const model = typeof args.model === "string" ? args.model : undefined;
    const what = model ? `the cached responses of ${model}` : "every cached response";
    const { existsSync, rmSync } = await import("node:fs");
    const { responseStorePath } = await import("../../servers/calls/cache/index.ts");
    const path = responseStorePath();
    if (!args.yes) {
      if (!process.stdin.isTTY) throw new GymError("E_USAGE", `Refusing to remove ${what} without a confirmation.`, { hint: "Pass --yes to clear the cache from a script." });
      if (!(await confirm(`Remove ${what} from ${path}?`))) {
        process.stderr.write("Nothing removed.\n");
        return 0;
      }
    }
    let removed = 0;
    if (existsSync(path)) {
      let opened;
      try {
        opened = await openCacheStore(false);
      } catch (error) {
        // A database that cannot be read is removed whole when everything is to go.
        if (model) throw error;
        for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
      }
      if (opened?.store) {
        removed = opened.store.clear(model);
        opened.store.close();
      }
    }
    if (json) process.stdout.write(`${JSON.stringify({ path, removed, model: model ?? null })}\n`);
    else process.stderr.write(`Removed ${removed} responses from ${path}.\n`);
    return 0;
  },
});

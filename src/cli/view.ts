/** `gym view [PATH ...]`: serves the results viewer on loopback; `gym view bundle PATH ... --output-dir DIR` writes a static copy. */
import { join } from "node:path";
import { defineGymCommand } from "./_command.ts";
import { GymError } from "../errors.ts";

const DEFAULT_PORT = 7575;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);
const note = (line: string) => void process.stderr.write(`${line}\n`);

export default defineGymCommand({
  meta: { name: "view", description: "Browse runs in a local web viewer: transcripts, compare, plots (or write a static bundle)" },
  args: {
    path: { type: "positional", required: false, variadic: true, description: "Rollouts files or run folders (searched recursively; default results/). `bundle PATH ...` writes a static copy", valueHint: "PATH" },
    port: { type: "string", description: `Port to serve on (default ${DEFAULT_PORT}, else a free one; 0 picks any)`, valueHint: "N" },
    host: { type: "string", description: "Interface to bind (default 127.0.0.1; anything else is reachable from the network)", valueHint: "HOST" },
    "output-dir": { type: "string", description: "With `bundle`: the folder to write index.html and assets/ into", valueHint: "DIR" },
  },
  examples: ["gym view", "gym view results/baseline results/candidate --port 8080", "gym view bundle results/ --output-dir report/viewer"],
  async run({ args }) {
    const positionals = (args._ as string[]).filter(Boolean);
    const bundling = positionals[0] === "bundle";
    const paths = bundling ? positionals.slice(1) : positionals;
    if (!bundling && args["output-dir"]) throw new GymError("E_USAGE", "--output-dir is for `gym view bundle`.", { hint: "Run `gym view bundle PATH ... --output-dir DIR`." });
    const [{ findRuns }, { cacheDir }] = await Promise.all([import("../view/runs.ts"), import("../download/cache.ts")]);
    const { runs } = findRuns(paths, { cacheDir: join(cacheDir(), "row-index"), warn: note });
    if (runs.length === 0) throw new GymError("E_INPUT_NOT_FOUND", `No rollouts files found under ${paths.join(", ") || "results/"}.`, { hint: "Pass a rollouts .jsonl file or a run folder." });
    if (bundling) {
      const out = args["output-dir"];
      if (!out) throw new GymError("E_MISSING_ARGUMENT", "gym view bundle needs --output-dir DIR.", { hint: "e.g. gym view bundle results/ --output-dir viewer" });
      const { writeBundle } = await import("../view/bundle.ts");
      const { bytes } = await writeBundle(runs, out);
      process.stdout.write(`Wrote ${runs.filter((r) => r.kind === "rollouts").length} run(s) to ${join(out, "index.html")} (${Math.round(bytes / 1024)} KB); open it in a browser.\n`);
      return;
    }
    const host = args.host ?? "127.0.0.1";
    if (!LOOPBACK.has(host)) note(`Warning: serving on ${host}: anyone who can reach this machine can read these runs.`);
    const port = args.port === undefined ? undefined : Number(args.port);
    if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) throw new GymError("E_BAD_FLAG_VALUE", `--port must be a port number (0–65535), got ${args.port}.`);
    const [{ viewApp }, { serve, waitForShutdownSignal, isPortFree }] = await Promise.all([import("../view/app.ts"), import("../runtime/serve.ts")]);
    const app = viewApp(runs);
    const chosen = port ?? ((await isPortFree(DEFAULT_PORT, host)) ? DEFAULT_PORT : 0);
    const served = await serve(app.fetch, { host, port: chosen });
    for (const run of runs) void run.refresh().catch((error) => note(`Warning: ${run.name}: ${(error as Error).message}`));
    process.stdout.write(`Viewing ${runs.filter((r) => r.kind === "rollouts").length} run(s) at ${served.url}/\n`);
    note("Press Ctrl-C to stop.");
    await waitForShutdownSignal();
    await served.stop();
  },
});

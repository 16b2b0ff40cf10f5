/** A saved run's cost, read from its rows: `<stem>.jsonl` and `<stem>_failures.jsonl`, priced by --prices or the run's own `prices` key. */
import * as fs from "node:fs";
import { parseYaml, isMapping } from "../../config/index.ts";
import { runPaths } from "../../outputs/paths.ts";
import { priceTable, tallyFiles, type PriceTable, type RunCost } from "./index.ts";

/** The prices a run was collected with: the given file, else the `prices` file its resolved config names, else the built-in table. */
export function pricesForRun(rollouts: string, pricesFile?: string): PriceTable {
  if (pricesFile) return priceTable(pricesFile);
  const config = runPaths(rollouts).resolvedConfig;
  if (fs.existsSync(config)) {
    try {
      const doc = parseYaml(fs.readFileSync(config, "utf8"), config);
      const named = isMapping(doc) ? doc.prices : undefined;
      if (typeof named === "string" && fs.existsSync(named)) return priceTable(named);
    } catch {
      // A damaged resolved config: the built-in table still prices what it knows.
    }
  }
  return priceTable();
}

/** Usage and cost of every rollout and failure row of the run whose rollouts file is `rollouts`. */
export async function runCost(rollouts: string, pricesFile?: string): Promise<RunCost> {
  const paths = runPaths(rollouts);
  return (await tallyFiles([paths.rollouts, paths.failures], pricesForRun(rollouts, pricesFile))).summary();
}

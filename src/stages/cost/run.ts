/** A saved run's cost, read from its rows: `<stem>.jsonl` and `<stem>_failures.jsonl`, priced by --prices or the run's own `prices` key. */
import * as fs from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { GymError } from "../../errors.ts";
import { parseYaml, isMapping } from "../../config/index.ts";
import { runPaths } from "../../outputs/paths.ts";
import { priceTable, tallyFiles, type PriceTable, type RunCost } from "./index.ts";

/**
 * The prices a run was collected with: the given file, else the `prices` file its resolved config names
 * (found from here or from the run's folder; refused when it is in neither, since pricing that run with
 * the built-in table would give a wrong cost without a word), else the built-in table.
 */
export function pricesForRun(rollouts: string, pricesFile?: string): PriceTable {
  if (pricesFile) return priceTable(pricesFile);
  const config = runPaths(rollouts).resolvedConfig;
  if (fs.existsSync(config)) {
    try {
      const doc = parseYaml(fs.readFileSync(config, "utf8"), config);
      const named = isMapping(doc) ? doc.prices : undefined;
      if (typeof named === "string") return priceTable(findPricesFile(named, rollouts, config));
    } catch (err) {
      if (err instanceof GymError) throw err;
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

function findPricesFile(named: string, rollouts: string, config: string): string {
  const candidates = isAbsolute(named) ? [named] : [resolve(named), resolve(dirname(rollouts), named)];
  const found = candidates.find((file) => fs.existsSync(file));
  if (found) return found;
  throw new GymError("E_INPUT_NOT_FOUND", `${config}: the run was priced with prices file ${named}, which is not found from here (${candidates.join(", or ")}).`, {
    hint: `Pass --prices with that file, e.g. --prices ${named}; the built-in table would price the run differently.`,
  });
}

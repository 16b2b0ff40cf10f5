/**
 * The whole run's cost, tallied as rows are written: rollouts in file order, then failures in file order, which is
 * the order (and so the floating-point sums) of `tallyFiles([rollouts, failures])` over the finished files.
 */
import { CostTally, type PriceTable, type RunCost } from "../stages/cost/index.ts";

type Row = Record<string, unknown>;

export class RunCostTally {
  private readonly tally: CostTally;
  /** Failure rows wait for the end (they follow every rollout in the files' order); failures are few. */
  private readonly failures: Row[] = [];

  constructor(prices: PriceTable) {
    this.tally = new CostTally(prices);
  }

  add(row: Row, file: "rollout" | "failure"): void {
    if (file === "rollout") this.tally.add(row);
    else this.failures.push(row);
  }

  summary(): RunCost {
    for (const row of this.failures.splice(0)) this.tally.add(row);
    return this.tally.summary();
  }
}

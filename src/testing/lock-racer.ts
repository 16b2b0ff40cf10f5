/**
 * One contender in the run-lock race (run as a real process, under Bun or Deno): for each round it waits at a
 * barrier until every contender is ready, then tries to take that round's stale lock and records whether it
 * got it. Winners keep their lock (the process is alive), so a second winner in a round is a double owner.
 *
 *   lock-racer.ts <dir> <contender> <contenders> <rounds>
 *
 * The test (src/outputs/lock-race.test.ts) writes `<dir>/round-<r>_run.lock` holding a stale owner for every
 * round before it starts the contenders, and reads `<dir>/result-<r>-<contender>` (`owner` or `refused`).
 */
import * as fs from "node:fs";
import { join } from "node:path";
import { acquireRunLock } from "../outputs/lock.ts";

const [dir, contender, contenders, rounds] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5])];

/** A spinning barrier: every contender leaves it within a few microseconds of the last one's arrival. */
function barrier(name: string): void {
  fs.writeFileSync(join(dir, `${name}-${contender}`), "");
  for (let n = 0; n < contenders; ) n = fs.existsSync(join(dir, `${name}-${n}`)) ? n + 1 : n;
}

for (let round = 0; round < rounds; round++) {
  barrier(`ready-${round}`);
  let result: string;
  try {
    acquireRunLock(join(dir, `round-${round}_run.lock`), join(dir, `round-${round}.jsonl`), () => {});
    result = "owner";
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== "E_RUN_LOCKED") throw error;
    result = "refused";
  }
  fs.writeFileSync(join(dir, `result-${round}-${contender}`), result);
}
// A winner that exited would leave a lock that is rightly stale to a contender still in that round: stay alive until all are done.
barrier("done");
process.exit(0);

import { describe, expect, test } from "bun:test";
import { decideExitCode } from "./exit-code.ts";
import type { Outcome } from "../outputs/store.ts";

const ok: Outcome = { kind: "success", attempt: 0 };
const retryable: Outcome = { kind: "failure", attempt: 0, failureClass: "agent_run_error", terminal: false, countsAsZero: false, savedAnswer: false };
const terminal: Outcome = { ...retryable, terminal: true } as Outcome;
const omitted: Outcome = { kind: "omitted", attempt: 0 };

function decide(outcomes: (Outcome | undefined)[], requireComplete: boolean, progressed = true, anythingScored = true) {
  const expected = outcomes.map((_, i) => `${i}-0`);
  const store = new Map<string, Outcome>();
  outcomes.forEach((o, i) => o && store.set(`${i}-0`, o));
  return decideExitCode({ expected, store, maxAttempts: 3, requireComplete, progressed, anythingScored });
}

describe("exit codes (collection.md §4.6)", () => {
  test("without require_complete: 0 with partial results, 1 when nothing was scored", () => {
    expect(decide([ok, retryable], false)).toBe(0);
    expect(decide([retryable], false, true, false)).toBe(1);
  });
  test("with require_complete", () => {
    expect(decide([ok, ok], true)).toBe(0);
    expect(decide([ok, retryable], true, true)).toBe(75);
    expect(decide([ok, retryable], true, false)).toBe(1);
    expect(decide([ok, undefined], true, true)).toBe(75);
    expect(decide([ok, terminal], true)).toBe(76);
    expect(decide([ok, omitted], true)).toBe(0);
    expect(decide([omitted, omitted], true)).toBe(76);
  });
});

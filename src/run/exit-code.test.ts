import { describe, expect, test } from "bun:test";
import { decideCompletion, decideExitCode } from "./exit-code.ts";
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

describe("each incomplete exit says why", () => {
  const completion = (outcomes: (Outcome | undefined)[], progressed: boolean) => {
    const store = new Map<string, Outcome>();
    outcomes.forEach((o, i) => o && store.set(`${i}-0`, o));
    return decideCompletion({ expected: outcomes.map((_, i) => `${i}-0`), store, maxAttempts: 3, requireComplete: true, progressed, anythingScored: true });
  };
  test("75 and 1 point to --resume; 76 names what stops each gap", () => {
    expect(completion([ok, retryable], true)).toMatchObject({ code: 75, resume: true, why: expect.stringContaining("1 of 2 rollouts have not succeeded; 1 can run again") });
    expect(completion([ok, retryable], false)).toMatchObject({ code: 1, resume: true, why: expect.stringContaining("made no progress (no new success or final outcome: 1 agent_run_error)") });
    const timeout: Outcome = { ...retryable, failureClass: "timeout", terminal: true } as Outcome;
    const exhausted: Outcome = { ...retryable, attempt: 2 } as Outcome;
    const why = completion([ok, timeout, exhausted, omitted], true);
    expect(why).toMatchObject({ code: 76, resume: false });
    expect(why.why).toContain("3 of 4 rollouts have not succeeded and none can run again: 1 failed terminally (1 timeout; --resume +retry_terminal_timeouts=true runs timeouts again); 1 used all 3 attempts");
    expect(why.why).toContain("1 were intentionally omitted");
    expect(completion([ok, omitted], true)).toMatchObject({ code: 0, why: expect.stringContaining("1 of 2 rollouts were intentionally omitted") });
    expect(completion([ok, ok], true)).toEqual({ code: 0, resume: false });
  });
});

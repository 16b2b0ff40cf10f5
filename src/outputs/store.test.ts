import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eligibility, loadStore, maxRolloutAttempts, type Outcome } from "./store.ts";

function files(rollouts: object[], failures: object[], tail = "") {
  const dir = mkdtempSync(join(tmpdir(), "gym-store-"));
  const r = join(dir, "r.jsonl");
  const f = join(dir, "r_failures.jsonl");
  writeFileSync(r, rollouts.map((x) => `${JSON.stringify(x)}\n`).join("") + tail);
  writeFileSync(f, failures.map((x) => `${JSON.stringify(x)}\n`).join(""));
  return { r, f };
}

describe("loadStore: newest attempt wins", () => {
  test("a retry's success beats the older failure; a newer failure beats an older success", async () => {
    const { r, f } = files(
      [{ _ng_task_index: 0, _ng_rollout_index: 0, _ng_attempt_index: 1, reward: 1 }, { _ng_task_index: 1, _ng_rollout_index: 0, reward: 1 }],
      [{ _ng_task_index: 0, _ng_rollout_index: 0, _ng_failure_class: "agent_run_error" }, { _ng_task_index: 1, _ng_rollout_index: 0, _ng_attempt_index: 1, _ng_failure_class: "agent_request_failed" }],
    );
    const store = await loadStore(r, f, new Map());
    expect(store.get("0-0")).toEqual({ kind: "success", attempt: 1 });
    expect(store.get("1-0")?.kind).toBe("failure");
  });

  test("within one attempt a success beats a failure (judge-only recovery keeps its number)", async () => {
    const { r, f } = files([{ _ng_task_index: 2, _ng_rollout_index: 1, reward: 0 }], [{ _ng_task_index: 2, _ng_rollout_index: 1, _ng_failure_class: "judge_failed" }]);
    expect((await loadStore(r, f, new Map())).get("2-1")).toEqual({ kind: "success", attempt: 0 });
  });

  test("evidence rows are never an attempt; a reservation with no row is 'missing'", async () => {
    const { r, f } = files([], [
      { _ng_task_index: 0, _ng_rollout_index: 0, _ng_failure_class: "agent_run_error" },
      { _ng_task_index: 0, _ng_rollout_index: 0, _ng_attempt_index: 1, _ng_unrouted_run_error: true, _ng_failure_class: "agent_run_error" },
      { _ng_task_index: 3, _ng_rollout_index: 0, _ng_dispatch_drained: true, _ng_failure_class: "cancelled" },
    ]);
    const store = await loadStore(r, f, new Map([["0-0", 1], ["5-0", 0]]));
    expect(store.get("0-0")).toEqual({ kind: "missing", attempt: 1 });
    expect(store.has("3-0")).toBe(false);
    expect(store.get("5-0")).toEqual({ kind: "missing", attempt: 0 });
  });

  test("a torn last line is ignored on read", async () => {
    const { r, f } = files([{ _ng_task_index: 0, _ng_rollout_index: 0, reward: 1 }], [], '{"_ng_task_index": 1, "_ng_rol');
    const store = await loadStore(r, f, new Map());
    expect([...store.keys()]).toEqual(["0-0"]);
  });

  test("terminal stamps, timeouts under retry_terminal_timeouts, omissions and kill_shaped", async () => {
    const { r, f } = files([], [
      { _ng_task_index: 0, _ng_rollout_index: 0, _ng_failure_class: "timeout_exceeded", _ng_failure_terminal: true },
      { _ng_task_index: 1, _ng_rollout_index: 0, _ng_failure_class: "skipped" },
      { _ng_task_index: 2, _ng_rollout_index: 0, _ng_omitted: true, _ng_failure_class: "x" },
      { _ng_task_index: 3, _ng_rollout_index: 0, _ng_failure_class: "kill_shaped" },
    ]);
    const strict = await loadStore(r, f, new Map());
    expect(eligibility(strict.get("0-0"), 3)).toBe("terminal");
    expect(eligibility(strict.get("1-0"), 3)).toBe("terminal");
    expect(eligibility(strict.get("2-0"), 3)).toBe("omitted");
    expect(eligibility(strict.get("3-0"), 3)).toBe("replay");
    const lenient = await loadStore(r, f, new Map(), true);
    expect(eligibility(lenient.get("0-0"), 3)).toBe("retry");
  });
});

describe("eligibility", () => {
  const failure = (attempt: number, extra: Partial<Extract<Outcome, { kind: "failure" }>> = {}): Outcome => ({ kind: "failure", attempt, failureClass: "agent_run_error", terminal: false, countsAsZero: false, savedAnswer: false, ...extra });
  test.each([
    [undefined, "run"],
    [{ kind: "success", attempt: 0 } as Outcome, "done"],
    [failure(0), "retry"],
    [failure(1), "retry"],
    [failure(2), "exhausted"],
    [failure(0, { terminal: true }), "terminal"],
    [failure(0, { savedAnswer: true, failureClass: "judge_failed" }), "judge"],
    [{ kind: "missing", attempt: 5 } as Outcome, "replay"],
  ])("%p → %p (cap 3)", (outcome, expected) => {
    expect(eligibility(outcome, 3) as string).toBe(expected as string);
  });
});

test("NEMO_GYM_MAX_ROLLOUT_ATTEMPTS: default 3, invalid values warn and fall back", () => {
  const warnings: string[] = [];
  expect(maxRolloutAttempts((m) => warnings.push(m), {})).toBe(3);
  expect(maxRolloutAttempts((m) => warnings.push(m), { NEMO_GYM_MAX_ROLLOUT_ATTEMPTS: "5" })).toBe(5);
  expect(maxRolloutAttempts((m) => warnings.push(m), { NEMO_GYM_MAX_ROLLOUT_ATTEMPTS: "0" })).toBe(3);
  expect(maxRolloutAttempts((m) => warnings.push(m), { NEMO_GYM_MAX_ROLLOUT_ATTEMPTS: "x" })).toBe(3);
  expect(warnings.length).toBe(2);
});

describe("loadStore: the identity scan (no rows built) matches the parsing read", () => {
  const parsed = (r: string, f: string) => loadStore(r, f, new Map(), false, { rollout: () => {} });
  const same = async (r: string, f: string) => {
    const scan = await loadStore(r, f, new Map());
    expect([...scan]).toEqual([...(await parsed(r, f))]);
    return scan;
  };

  test("plain rows: identities, attempts, newest attempt, nested look-alike keys ignored", async () => {
    const { r, f } = files(
      [
        { response: { _ng_task_index: 9, _ng_attempt_index: 5 }, _ng_task_index: 0, _ng_rollout_index: 0, reward: 1 },
        { _ng_task_index: 0, _ng_rollout_index: 0, _ng_attempt_index: 2, reward: 0, text: "_ng_task_index\":7" },
        { _ng_task_index: 0, _ng_rollout_index: 1, _ng_attempt_index: 1 },
        { _ng_rollout_index: 3 },
      ],
      [{ _ng_task_index: 0, _ng_rollout_index: 1, _ng_attempt_index: 2, _ng_failure_class: "agent_run_error" }],
    );
    const store = await same(r, f);
    expect(store.get("0-0")).toEqual({ kind: "success", attempt: 2 });
    expect(store.get("0-1")?.kind).toBe("failure");
    expect(store.get("undefined-3")).toEqual({ kind: "success", attempt: 0 });
  });

  test("odd rows (a string index, a float attempt, a null index) keep the identities JSON.parse gives them", async () => {
    const { r, f } = files([{ _ng_task_index: 1, _ng_rollout_index: 0 }], []);
    writeFileSync(r, `{"_ng_task_index":"4","_ng_rollout_index":0}\n{"_ng_task_index":5,"_ng_rollout_index":0,"_ng_attempt_index":1.0}\n{"_ng_task_index":null,"_ng_rollout_index":0}\n`);
    const store = await same(r, f);
    expect(store.get("4-0")).toEqual({ kind: "success", attempt: 0 });
    expect(store.get("5-0")).toEqual({ kind: "success", attempt: 1 });
    expect(store.get("null-0")?.kind).toBe("success");
  });

  test("a torn last line is passed over, as the parsing read passes over it", async () => {
    const { r, f } = files([{ _ng_task_index: 0, _ng_rollout_index: 0 }], [], '{"_ng_task_index":1,"_ng_rollout_ind');
    const store = await same(r, f);
    expect(store.has("1-undefined")).toBe(false);
    expect(store.size).toBe(1);
  });
});

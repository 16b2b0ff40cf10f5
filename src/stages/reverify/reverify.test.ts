import { afterAll, describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ServerRegistry } from "../../servers/registry.ts";
import { defineResourcesServer, py, reraiseJudgeErrors } from "../../servers/resources/index.ts";
import { reverifyCases, writeCase } from "./fixtures.ts";
import { reverify, type ReverifyOptions } from "./index.ts";

type Row = Record<string, any>;
const root = fs.mkdtempSync(path.join(os.tmpdir(), "gym-reverify-stage-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => fs.mkdtempSync(path.join(root, `t${n++}-`));
const readRows = (file: string): Row[] => fs.readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const writeRows = (file: string, rows: Row[]) => fs.writeFileSync(file, rows.map((r) => `${JSON.stringify(r)}\n`).join(""));
const mcqaCase = reverifyCases().find((c) => c.name === "mcqa")!;

/** A judge-backed verifier whose judge can be down: `answer` in the output text equals `expected` → 1. */
const createJudged = defineResourcesServer<{ judge_up: boolean }>({
  name: "judged",
  className: "JudgedResourcesServer",
  reverifyMode: "unknown",
  config: { fields: { judge_up: py.withDefault(py.bool(), () => true) } },
  verify: {
    request: { fields: { expected: py.str() } },
    response: ["expected"],
    async handler(body, { config }) {
      if (!config.judge_up) await reraiseJudgeErrors(Promise.reject(new Error("judge endpoint unreachable")));
      const text = JSON.stringify((body.response as Row).output);
      return { reward: text.includes(`answer ${body.expected}`) ? 1 : 0 };
    },
  },
});

const catalogs = {
  resources_servers: {
    mcqa: () => import("../../components/resources_servers/mcqa/index.ts"),
    string_match: () => import("../../components/resources_servers/string_match/index.ts"),
    judged: async () => ({ default: createJudged }),
  },
};

interface Setup {
  /** [name, implementation, block] of resources servers; agents are `<name>_simple_agent` → that server. */
  servers: [string, string, Row?][];
  agents?: boolean;
}

async function servers(setup: Setup) {
  const rs = setup.servers.map(([name, implementation, block]) => ({ name, serverType: "resources_servers" as const, implementation, block: block ?? {} }));
  const agents = setup.agents === false ? [] : setup.servers.map(([name]) => ({ name: `${name}_simple_agent`, serverType: "responses_api_agents" as const, implementation: "simple_agent", block: { resources_server: { type: "resources_servers", name } } }));
  const registry = await ServerRegistry.create(rs, { catalogs });
  return { instances: [...rs, ...agents], servers: registry };
}

function judgedRow(task: number, answer: string, expected: string): { input: Row; rollout: Row } {
  const ids = { _ng_task_index: task, _ng_rollout_index: 0 };
  const params = { input: [{ role: "user", content: `q${task}` }] };
  const response = { id: `r${task}`, created_at: 1, model: "m", object: "response", parallel_tool_calls: true, tool_choice: "auto", tools: [], output: [{ type: "message", id: `m${task}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: `answer ${answer}`, annotations: [] }] }] };
  return {
    input: { responses_create_params: params, expected, agent_ref: { name: "judged_simple_agent" }, ...ids },
    rollout: { responses_create_params: params, response, reward: 0, expected: "stale", ...ids, agent_ref: { name: "judged_simple_agent" } },
  };
}

/** A judged run of `count` tasks: inputs, rollouts (all), and the answers (task i answers i % 3 === 0 wrongly). */
function judgedRun(dir: string, count: number) {
  const rows = Array.from({ length: count }, (_, i) => judgedRow(i, i % 3 === 0 ? "no" : "yes", "yes"));
  writeRows(path.join(dir, "rollouts_materialized_inputs.jsonl"), rows.map((r) => r.input));
  writeRows(path.join(dir, "all.jsonl"), rows.map((r) => r.rollout));
  return { inputs: path.join(dir, "rollouts_materialized_inputs.jsonl"), rollouts: path.join(dir, "all.jsonl"), rows };
}

async function run(setup: Setup, options: Omit<ReverifyOptions, "instances" | "servers">) {
  const s = await servers(setup);
  const logs: string[] = [];
  try {
    const report = await reverify({ ...s, log: { info: (m) => logs.push(m), warn: (m) => logs.push(`W ${m}`) }, ...options });
    return { report, logs };
  } finally {
    await s.servers.close();
  }
}

describe("reverify: published mcqa rollouts", () => {
  test("rewards reproduce (the stale row pinned), stamps are appended, metrics come from the resources server", async () => {
    const dir = freshDir();
    const files = writeCase(mcqaCase, dir);
    const output = path.join(dir, "out.jsonl");
    const { report } = await run({ servers: [["mcqa", "mcqa"]] }, { ...files, output });
    expect(report).toMatchObject({ verified: 5, succeeded: 5, unsafe: false, reverifyModes: { mcqa: "stateless" }, aggregateMetrics: path.join(dir, "out_aggregate_metrics.json") });
    const rows = readRows(output);
    const got = new Map(rows.map((r) => [`${r._ng_task_index}-${r._ng_rollout_index}`, r.reward]));
    for (const { key, reward } of mcqaCase.stored) {
      // Stale row (verifiers.md §2): stored 0.0, NeMo Gym HEAD reads `\boxed{C: …}` as C → 1.0.
      expect([key, got.get(key)]).toEqual([key, key === "1-0" ? 1 : reward]);
    }
    expect(Object.keys(rows[0]!).slice(-5)).toEqual(["expected_answer", "extracted_answer", "_ng_task_index", "_ng_rollout_index", "agent_ref"]);
    expect(fs.readFileSync(output, "utf8")).toContain('"reward":1.0,');
    const metrics = JSON.parse(fs.readFileSync(report.aggregateMetrics!, "utf8"));
    expect(metrics[0].agent_ref).toEqual({ name: "mcqa_simple_agent" });
    expect(metrics[0].key_metrics["mean/reward"]).toBe(0.8);
    expect(metrics[0].agent_metrics["pass@1/accuracy"]).toBe(80);
    expect(fs.statSync(report.aggregateMetrics!).mtimeMs).toBeGreaterThanOrEqual(fs.statSync(output).mtimeMs);
  });

  test("the materialized row wins for every field but response", async () => {
    const dir = freshDir();
    const files = writeCase(mcqaCase, dir);
    // Task 0's stored answer is B; flip the input's expected answer and the rollout's echoed one differently.
    const inputs = readRows(files.inputs).map((r) => (r._ng_task_index === 0 ? { ...r, expected_answer: "D" } : r));
    const rollouts = readRows(files.rollouts).map((r) => (r._ng_task_index === 0 ? { ...r, expected_answer: "B" } : r));
    writeRows(files.inputs, inputs);
    writeRows(files.rollouts, rollouts);
    const { report } = await run({ servers: [["mcqa", "mcqa"]] }, { ...files, output: path.join(dir, "out.jsonl"), disableAggregation: true });
    const row = readRows(report.output).find((r) => r._ng_task_index === 0)!;
    expect([row.expected_answer, row.extracted_answer, row.reward]).toEqual(["D", "B", 0]);
    expect(report.aggregateMetrics).toBeNull();
    expect(fs.existsSync(path.join(dir, "out_aggregate_metrics.json"))).toBe(false);
  });
});

describe("reverify: join errors name file and line, and nothing is written", () => {
  async function joinError(mutate: (inputs: string, rollouts: string) => [string, string]) {
    const dir = freshDir();
    const files = writeCase(mcqaCase, dir);
    const [inputsText, rolloutsText] = mutate(fs.readFileSync(files.inputs, "utf8"), fs.readFileSync(files.rollouts, "utf8"));
    fs.writeFileSync(files.inputs, inputsText);
    fs.writeFileSync(files.rollouts, rolloutsText);
    const output = path.join(dir, "out.jsonl");
    const error = await run({ servers: [["mcqa", "mcqa"]] }, { ...files, output }).then(() => undefined, (e) => e);
    expect(fs.existsSync(output)).toBe(false);
    return { error, files };
  }
  const lines = (text: string) => text.split("\n").filter(Boolean);

  test("rollouts without an input and duplicated identities are listed together", async () => {
    const { error, files } = await joinError((i, r) => {
      const inputs = lines(i).filter((l) => !l.includes('"_ng_task_index":3,'));
      const ro = lines(r);
      return [`${inputs.join("\n")}\n`, `${[...ro, ro[0]].join("\n")}\n`];
    });
    expect(error.code).toBe("E_INPUT_SCHEMA");
    expect(error.message).toContain("2 row(s) of");
    expect(error.message).toContain(`${files.rollouts}:4: rollout (_ng_task_index 3, _ng_rollout_index 0) has no row in ${files.inputs}`);
    expect(error.message).toContain(`${files.rollouts}:6: rollout (_ng_task_index 2, _ng_rollout_index 0) already appeared on line 1`);
  });

  test("a malformed rollout line stops with file:line:column", async () => {
    const { error, files } = await joinError((i, r) => [i, r.replace(/\n(?=.)/, '\n{"_ng_task_index": 9,\n')]);
    expect(error.code).toBe("E_INPUT_JSON");
    expect(error.message).toStartWith(`${files.rollouts}:2:`);
  });

  test("an input identity seen twice, and a rollout without response or identity", async () => {
    const dup = await joinError((i, r) => [`${i}${lines(i)[1]}\n`, r]);
    expect(dup.error.message).toBe(`${dup.files.inputs}:6: identity (_ng_task_index 4, _ng_rollout_index 0) already appeared on line 2.`);
    const noResponse = await joinError((i, r) => [i, r.replace(/"response":\s*\{/, '"_ng_result_type":"error","resp":{')]);
    expect(noResponse.error.message).toContain(`${noResponse.files.rollouts}:1: rollout (_ng_task_index 2, _ng_rollout_index 0) has no 'response' (result type 'error')`);
    const noIdentity = await joinError((i, r) => [i, r.replace('"_ng_rollout_index":0', '"rollout":0')]);
    expect(noIdentity.error.message).toStartWith(`${noIdentity.files.rollouts}:1: this rollout row has no _ng_rollout_index`);
  });
});

describe("reverify: guard, --force, routing", () => {
  test("an unknown-mode server is refused before any file is written; --force prefixes unsafe_", async () => {
    const dir = freshDir();
    const files = judgedRun(dir, 4);
    const output = path.join(dir, "re.jsonl");
    const refused = await run({ servers: [["judged", "judged"]] }, { ...files, output }).then(() => undefined, (e) => e);
    expect(refused.message).toContain("resources server(s) 'judged' (unknown)");
    expect(refused.hint).toContain("--force");
    expect(fs.readdirSync(dir).sort()).toEqual(["all.jsonl", "rollouts_materialized_inputs.jsonl"]);
    const { report, logs } = await run({ servers: [["judged", "judged"]] }, { ...files, output, force: true });
    expect(report.output).toBe(path.join(dir, "unsafe_re.jsonl"));
    expect(report.aggregateMetrics).toBe(path.join(dir, "unsafe_re_aggregate_metrics.json"));
    expect(readRows(report.output).map((r) => r.reward)).toEqual([0, 1, 1, 0]);
    expect(logs.filter((l) => l.includes("Output is prefixed with 'unsafe_'"))).toHaveLength(2);
    expect(fs.existsSync(output)).toBe(false);
  });

  test("the guard asks only the servers the rows route to", async () => {
    const dir = freshDir();
    const files = writeCase(mcqaCase, dir);
    const { report } = await run({ servers: [["mcqa", "mcqa"], ["string_match", "string_match"]] }, { ...files, output: path.join(dir, "o.jsonl") });
    expect(report.reverifyModes).toEqual({ mcqa: "stateless" });
  });

  test("no agent blocks: one server takes every row (with a warning); several are an error; unknown agents are listed", async () => {
    const dir = freshDir();
    const files = writeCase(mcqaCase, dir);
    const only = await run({ servers: [["mcqa", "mcqa"]], agents: false }, { ...files, output: path.join(dir, "a.jsonl") });
    expect(only.report.succeeded).toBe(5);
    expect(only.logs.some((l) => l.startsWith("W The config has no agent blocks: every row goes to the only resources server 'mcqa'"))).toBe(true);
    const several = await run({ servers: [["mcqa", "mcqa"], ["sm", "string_match"]], agents: false }, { ...files, output: path.join(dir, "b.jsonl") }).catch((e) => e);
    expect(several.message).toBe("Reverify found several resources servers (mcqa, sm) and no agent blocks to route rows by.");
    writeRows(files.inputs, readRows(files.inputs).map((r) => ({ ...r, agent_ref: { name: "mcqa_simpel_agent" } })));
    const unknown = await run({ servers: [["mcqa", "mcqa"]] }, { ...files, output: path.join(dir, "c.jsonl") }).catch((e) => e);
    expect(unknown.message).toBe(`${files.inputs}:1: agent 'mcqa_simpel_agent' is not in the config (known agents: mcqa_simple_agent).`);
    expect(unknown.hint).toStartWith("Did you mean 'mcqa_simple_agent'?");
  });
});

describe("reverify: outputs, resume, failures", () => {
  test("an existing output is refused; --overwrite replaces it and drops stale metrics", async () => {
    const dir = freshDir();
    const files = writeCase(mcqaCase, dir);
    const output = path.join(dir, "out.jsonl");
    fs.writeFileSync(output, "old\n");
    fs.writeFileSync(path.join(dir, "out_aggregate_metrics.json"), "[]");
    const refused = await run({ servers: [["mcqa", "mcqa"]] }, { ...files, output }).catch((e) => e);
    expect(refused.code).toBe("E_OUTPUT_EXISTS");
    expect(refused.message).toBe(`Output file already exists: ${output}`);
    expect(fs.readFileSync(output, "utf8")).toBe("old\n");
    const { report } = await run({ servers: [["mcqa", "mcqa"]] }, { ...files, output, overwrite: true, disableAggregation: true });
    expect(readRows(report.output)).toHaveLength(5);
    expect(fs.existsSync(path.join(dir, "out_aggregate_metrics.json"))).toBe(false);
  });

  test("--resume after a torn write: complete rows are kept, the torn one and the rest are verified once", async () => {
    const dir = freshDir();
    const files = writeCase(mcqaCase, dir);
    const output = path.join(dir, "out.jsonl");
    await run({ servers: [["mcqa", "mcqa"]] }, { ...files, output });
    const full = fs.readFileSync(output, "utf8");
    const cut = full.indexOf("\n", full.indexOf("\n") + 1) + 200; // two rows, then part of the third
    fs.writeFileSync(output, full.slice(0, cut));
    const { report, logs } = await run({ servers: [["mcqa", "mcqa"]] }, { ...files, output, resume: true });
    expect(logs.some((l) => l.includes("Removed a torn last line"))).toBe(true);
    expect(report.skipped.done).toBe(2);
    expect(report.verified).toBe(3);
    const rows = readRows(output);
    expect(rows.map((r) => r._ng_task_index).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(fs.readFileSync(output, "utf8").startsWith(full.slice(0, full.indexOf("\n", full.indexOf("\n") + 1) + 1))).toBe(true);
  });

  test("--resume skips terminal and retry-capped sidecar rows and retries the others", async () => {
    const dir = freshDir();
    const files = writeCase(mcqaCase, dir);
    const output = path.join(dir, "out.jsonl");
    writeRows(path.join(dir, "out_failures.jsonl"), [
      { _ng_task_index: 0, _ng_rollout_index: 0, _ng_failure_class: "timeout_exceeded", _ng_failure_terminal: true },
      ...[1, 1, 1].map(() => ({ _ng_task_index: 1, _ng_rollout_index: 0, _ng_failure_class: "agent_request_failed" })),
      { _ng_task_index: 2, _ng_rollout_index: 0, _ng_failure_class: "agent_request_failed" },
      { _ng_task_index: 3, _ng_rollout_index: 0, _ng_failure_class: "x", _ng_unrouted_run_error: true, _ng_failure_terminal: true },
    ]);
    const { report } = await run({ servers: [["mcqa", "mcqa"]] }, { ...files, output, resume: true });
    expect(report.skipped).toEqual({ done: 0, terminal: 1, maxedOut: 1 });
    expect(readRows(output).map((r) => r._ng_task_index).sort()).toEqual([2, 3, 4]);
    const again = await run({ servers: [["mcqa", "mcqa"]] }, { ...files, output, resume: true, retryTerminalTimeouts: true });
    expect(again.report.verified).toBe(1);
    expect(readRows(output).map((r) => r._ng_task_index).sort()).toEqual([0, 2, 3, 4]);
  });

  test("--limit counts rows before the resume filter", async () => {
    const dir = freshDir();
    const files = writeCase(mcqaCase, dir);
    const output = path.join(dir, "out.jsonl");
    const first = await run({ servers: [["mcqa", "mcqa"]] }, { ...files, output, limit: 2 });
    expect(first.report.verified).toBe(2);
    const second = await run({ servers: [["mcqa", "mcqa"]] }, { ...files, output, limit: 3, resume: true });
    expect([second.report.skipped.done, second.report.verified]).toEqual([2, 1]);
    expect(readRows(output)).toHaveLength(3);
  });

  test("a failed /verify call ends the run after the rows in flight (evidence row kept); opt-in routes it to the sidecar", async () => {
    const dir = freshDir();
    const files = judgedRun(dir, 3);
    // `expected` must be a string: a number is a 422 from the verifier.
    writeRows(files.inputs, readRows(files.inputs).map((r) => (r._ng_task_index === 1 ? { ...r, expected: 7 } : r)));
    const output = path.join(dir, "out.jsonl");
    const error = await run({ servers: [["judged", "judged"]] }, { ...files, output, force: true, concurrency: 1 }).catch((e) => e);
    expect(error.code).toBe("E_HTTP");
    expect(error.message).toContain(`/verify failed for rollout (task 1, rollout 0) at ${files.rollouts}:2: POST /verify on 'judged' answered 422`);
    expect(readRows(path.join(dir, "unsafe_out.jsonl")).map((r) => r._ng_task_index)).toEqual([0]);
    const [evidence] = readRows(path.join(dir, "unsafe_out_failures.jsonl"));
    expect(evidence).toMatchObject({ _ng_task_index: 1, _ng_failure_class: "agent_request_failed", _ng_failure_http_status: 422, _ng_omitted_rollout: true, _ng_unrouted_run_error: true });
    const { report } = await run({ servers: [["judged", "judged"]] }, { ...files, output, force: true, resume: true, routeFailuresToSidecar: true });
    expect(report.failuresByClass).toEqual({ agent_request_failed: 1 });
    expect(readRows(path.join(dir, "unsafe_out.jsonl")).map((r) => r._ng_task_index)).toEqual([0, 2]);
    expect(readRows(path.join(dir, "unsafe_out_failures.jsonl"))[1]._ng_failure_message).toStartWith("verify_failed: POST /verify on 'judged' answered 422");
  });
});

describe("reverify: --judge-failed-only", () => {
  /** A finished run whose judge was down for some rows: successes in rollouts.jsonl, judge failures in its sidecar. */
  function recoveredRun(dir: string) {
    const files = judgedRun(dir, 6);
    const all = readRows(files.rollouts);
    const rollouts = path.join(dir, "rollouts.jsonl");
    writeRows(rollouts, all.filter((r) => r._ng_task_index < 3).map((r) => ({ ...r, reward: r._ng_task_index === 0 ? 0 : 1 })));
    const judgeFailure = (r: Row) => ({ ...r, reward: 0, _ng_failure_class: "judge_failed" });
    writeRows(path.join(dir, "rollouts_failures.jsonl"), [
      judgeFailure(all[3]!),
      judgeFailure(all[4]!),
      judgeFailure(all[3]!), // a second attempt of the same identity: verified once
      { ...all[5]!, _ng_failure_class: "timeout_exceeded" },
      { _ng_task_index: 5, _ng_rollout_index: 0, _ng_failure_class: "judge_failed", _ng_unrouted_run_error: true },
    ]);
    return { inputs: files.inputs, rollouts };
  }

  test("successes are carried through, judge failures re-verified once, the guard is skipped, metrics cover the union", async () => {
    const dir = freshDir();
    const files = recoveredRun(dir);
    const output = path.join(dir, "recovered.jsonl");
    const { report, logs } = await run({ servers: [["judged", "judged"]] }, { ...files, output, judgeFailedOnly: true });
    expect(logs[0]).toStartWith("W --judge-failed-only merges rewards from two sources");
    expect(report).toMatchObject({ unsafe: false, seeded: 3, verified: 2, succeeded: 2, reverifyModes: {} });
    const rows = readRows(output);
    expect(rows.map((r) => [r._ng_task_index, r.reward])).toEqual([[0, 0], [1, 1], [2, 1], [3, 0], [4, 1]]);
    const metrics = JSON.parse(fs.readFileSync(report.aggregateMetrics!, "utf8"));
    expect(metrics[0].agent_metrics["mean/reward"]).toBe(0.6);
    // Idempotent: appending again recovers nothing new.
    const again = await run({ servers: [["judged", "judged"]] }, { ...files, output, judgeFailedOnly: true, append: true });
    expect([again.report.seeded, again.report.verified]).toEqual([0, 0]);
    expect(readRows(output)).toHaveLength(5);
  });

  test("--append onto the run's own rollouts.jsonl completes it in place; a still-flaky judge is finished by --resume", async () => {
    const dir = freshDir();
    const files = recoveredRun(dir);
    const flaky = await run({ servers: [["judged", "judged", { judge_up: false }]] }, { ...files, output: path.join(dir, "r.jsonl"), judgeFailedOnly: true });
    expect(flaky.report.failuresByClass).toEqual({ judge_failed: 2 });
    const healed = await run({ servers: [["judged", "judged"]] }, { ...files, output: path.join(dir, "r.jsonl"), judgeFailedOnly: true, resume: true });
    expect(healed.report.verified).toBe(2);
    expect(readRows(path.join(dir, "r.jsonl")).map((r) => r._ng_task_index)).toEqual([0, 1, 2, 3, 4]);

    const inPlace = await run({ servers: [["judged", "judged"]] }, { ...files, output: files.rollouts, judgeFailedOnly: true, append: true });
    expect([inPlace.report.seeded, inPlace.report.verified]).toEqual([0, 2]);
    expect(readRows(files.rollouts).map((r) => r._ng_task_index)).toEqual([0, 1, 2, 3, 4]);
  });

  test("a multi-stage sidecar is refused before any write", async () => {
    const dir = freshDir();
    const files = recoveredRun(dir);
    fs.appendFileSync(path.join(dir, "rollouts_failures.jsonl"), `${JSON.stringify({ _ng_task_index: 1, _ng_rollout_index: 0, stage_index: 1, _ng_failure_class: "judge_failed" })}\n`);
    const error = await run({ servers: [["judged", "judged"]] }, { ...files, output: path.join(dir, "x.jsonl"), judgeFailedOnly: true }).catch((e) => e);
    expect(error.message).toStartWith(`${path.join(dir, "rollouts_failures.jsonl")}:6: this failures sidecar comes from a multi-stage run`);
    expect(fs.existsSync(path.join(dir, "x.jsonl"))).toBe(false);
  });

  test("option combinations are refused before any I/O", async () => {
    const dir = freshDir();
    const base = { inputs: "nope.jsonl", rollouts: "nope.jsonl", output: path.join(dir, "o.jsonl") };
    const s = { servers: [["mcqa", "mcqa"]] as [string, string][] };
    expect((await run(s, { ...base, append: true }).catch((e) => e)).message).toBe("--append is only valid together with --judge-failed-only.");
    expect((await run(s, { ...base, append: true, overwrite: true, judgeFailedOnly: true }).catch((e) => e)).message).toStartWith("--append and --overwrite are mutually exclusive");
    expect((await run(s, { ...base, rollouts: "-", judgeFailedOnly: true }).catch((e) => e)).code).toBe("E_USAGE");
    expect((await run(s, { ...base, concurrency: 0 }).catch((e) => e)).message).toBe("--concurrency expects a whole number ≥ 1, got 0.");
    // Writing over an input would destroy what is being read (--overwrite deletes the output first).
    const same = { inputs: path.join(dir, "in.jsonl"), rollouts: path.join(dir, "ro.jsonl") };
    expect((await run(s, { ...same, output: same.rollouts, overwrite: true }).catch((e) => e)).message).toBe("--output is the --rollouts file; reverify would overwrite the rollouts it reads.");
    expect((await run(s, { ...same, output: same.inputs, resume: true }).catch((e) => e)).message).toBe("--output is the --inputs file; reverify would overwrite its own input.");
    expect((await run(s, { ...same, output: same.rollouts, judgeFailedOnly: true, overwrite: true }).catch((e) => e)).code).toBe("E_USAGE");
  });
});

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { post, readJsonlFile } from "../_common/testing.ts";
import { judgeDirectory, replayByPrompt, replayJudgeApp, textResponse, type JudgeLookup } from "../_judge/replay.ts";
import { rescore } from "../_judge/parity.ts";
import createServer, { aggregate, extractVerdict } from "./index.ts";

const dir = import.meta.dir;
type Row = Record<string, any>;
const rows = readJsonlFile<Row>(dir, "data/example.jsonl");
const rollouts = readJsonlFile<Row>(dir, "data/example_rollouts.jsonl");
const shipped = (parse(readFileSync(`${dir}/configs/inverse_if.yaml`, "utf8")) as Row).inverse_if.resources_servers.inverse_if;
const server = (lookup: JudgeLookup, extra: Row = {}) => createServer({ ...shipped, ...extra }, { name: "inverse_if", servers: judgeDirectory("judge_model", replayJudgeApp(lookup)) });

describe("inverse_if: published rollouts re-scored by a replaying judge", () => {
  test("5 of 5 exact, key order included (each criterion's stored judge_response answered to its judge_prompt)", async () => {
    const judge = replayByPrompt(rollouts.flatMap((r) => r.rubric_evaluations.map((e: Row) => ({ prompt: e.judge_prompt, answer: textResponse(e.judge_response) }))));
    expect(await rescore(server(judge), rollouts, rows)).toEqual([[], [], [], [], []]);
    expect(judge.unused()).toBe(0);
  });
});

describe("inverse_if: rules", () => {
  test("verdicts: fenced JSON, inline JSON, the last five lines, FAIL by default", () => {
    expect(extractVerdict('```json\n{"result": " pass ", "explanation": "ok"}\n```')).toEqual(["PASS", "ok"]);
    expect(extractVerdict('Verdict {"explanation": "no", "result": "FAIL"} end')).toEqual(["FAIL", "no"]);
    expect(extractVerdict("a\nb\nc\nd\ne\nPASS\nf")).toEqual(["PASS", ""]);
    expect(extractVerdict("PASS\n1\n2\n3\n4\n5")).toEqual(["FAIL", ""]);
  });
  test("aggregation modes", () => {
    expect(["mean", "min", "max", "all", "any", "weighted"].map((m) => aggregate([1, 0, 1], m as any))).toEqual([2 / 3, 0, 1, 0, 1, 2 / 3]);
    expect(aggregate([], "mean")).toBe(0);
  });
  test("the config's defaults stand in for a task without templates; rubric and templates are not echoed; a failed call is judge_failed", async () => {
    const seen: Row[] = [];
    const task = { ...rows[0]!, judge_prompt_template: null, judge_system_prompt: null, response: rollouts[0]!.response };
    const reply = await post(server((_p, b) => (seen.push(b), textResponse('{"result": "PASS"}')), { parallel_evaluation: false }), "/verify", task);
    expect(seen[0]!.input[0].content).toBe(shipped.default_judge_system_prompt);
    expect([reply.body.reward, reply.body.num_passed, reply.body.num_total]).toEqual([1, rows[0]!.rubric.length, rows[0]!.rubric.length]);
    expect(["rubric", "judge_prompt_template", "judge_system_prompt"].filter((k) => k in reply.body)).toEqual([]);
    expect((await post(server(() => undefined), "/verify", task)).body._ng_failure_class).toBe("judge_failed");
  });
});

import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../../../testing/binary.ts";
import { expectedNodeKeys, nodeF1, parseNodeList } from "../_common/node-list.ts";
import { fullResponse, post, readJsonlFile } from "../_common/testing.ts";
import createGraphwalks from "./index.ts";

const dir = import.meta.dir;
const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
const OUTPUTS = ["reward", "f1", "parse_failed", "predicted_nodes"];
const work = mkdtempSync(join(tmpdir(), "gym-graphwalks-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const reply = (text: string) => fullResponse({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }] });

describe("graphwalks: the grade (values from NeMo Gym's app.py functions under CPython 3.11)", () => {
  test("the last non-blank line only; greedy brackets; empty list; Python whitespace", () => {
    expect(parseNodeList("Final Answer: [a, b]\nthinking more")).toEqual({ nodes: [], parseFailed: true });
    expect(parseNodeList("x\nFinal Answer: [a, b, , c ]\n \n")).toEqual({ nodes: ["a", "b", "c"], parseFailed: false });
    expect(parseNodeList("Final Answer: [a] and [b]")).toEqual({ nodes: ["a] and [b"], parseFailed: false });
    expect(parseNodeList("Final Answer:\u3000[ ]")).toEqual({ nodes: [], parseFailed: false });
    expect(parseNodeList("Final Answer: [\"a\", 'b']")).toEqual({ nodes: ['"a"', "'b'"], parseFailed: false });
    expect(parseNodeList("Final Answer: [\"a\", 'b']", true)).toEqual({ nodes: ["a", "b"], parseFailed: false });
    expect(parseNodeList("")).toEqual({ nodes: [], parseFailed: true });
  });
  test("F1 over sets: duplicates count once, both empty is 1, a bad expected answer is the empty set", () => {
    expect(nodeF1(["a", "a", "b"], expectedNodeKeys('["a", "c"]'), false)).toBe(0.5);
    expect(nodeF1(["a", "b", "c"], expectedNodeKeys('["a"]'), false)).toBe(0.5);
    expect(nodeF1([], expectedNodeKeys("[]"), false)).toBe(1);
    expect(nodeF1([], expectedNodeKeys("not json"), false)).toBe(1);
    expect(nodeF1(["1"], expectedNodeKeys("[1]"), false)).toBe(0);
    expect(nodeF1(["a"], expectedNodeKeys('"ab"'), false)).toBe(0.6666666666666666);
    expect(nodeF1(["a"], expectedNodeKeys('[["a"]]'), false)).toBe(0);
    expect(nodeF1(["a"], expectedNodeKeys('["a"]'), true)).toBe(0);
  });
  test("missing problem_type is a 422 naming the field", async () => {
    const r = await post(createGraphwalks(), "/verify", { responses_create_params: { input: "hi" }, response: reply("Final Answer: []"), expected_answer: "[]" });
    expect(r.status).toBe(422);
    expect(r.body.detail.map((d: any) => d.loc.join("."))).toEqual(["body.problem_type"]);
  });
});

describe("graphwalks: NeMo Gym's published rollouts", () => {
  test("5 of 5 rows reproduce through /verify: every field, in order (the response as gym's Responses model dumps it)", async () => {
    const app = createGraphwalks();
    for (const rollout of rollouts) {
      const input = Object.fromEntries(Object.entries(rollout).filter(([k]) => !OUTPUTS.includes(k)));
      const r = await post(app, "/verify", input);
      expect(r.status).toBe(200);
      const { _ng_task_index, _ng_rollout_index, agent_ref, ...published } = rollout;
      expect(Object.keys(r.body)).toEqual(Object.keys(published));
      expect({ ...r.body, response: null }).toEqual({ ...published, response: null });
    }
    expect(rollouts).toHaveLength(5);
  });

  test("the published file holds its 4th row twice (task 11, rollout 0): pinned, and restamped 0..4 for reverify", () => {
    expect(rollouts[4]).toEqual(rollouts[3]!);
    expect(rollouts.map((r) => r._ng_task_index)).toEqual([439, 5, 2, 11, 11]);
  });

  test("gym eval reverify on the binary re-scores them exactly (reverify mode unknown, as NeMo Gym: --force)", async () => {
    // Made with the n3_1m benchmark config (not shipped): reverified under the server's own agent.
    const stamped: Record<string, any>[] = rollouts.map((r, i) => ({ ...r, _ng_task_index: i, agent_ref: { type: "responses_api_agents", name: "graphwalks_simple_agent" } }));
    const inputs = stamped.map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).filter(([k]) => !OUTPUTS.includes(k) && k !== "response"))));
    writeFileSync(join(work, "rollouts_materialized_inputs.jsonl"), `${inputs.join("\n")}\n`);
    writeFileSync(join(work, "rollouts.jsonl"), `${stamped.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const r = await gym(["eval", "reverify", "--resources-server", "graphwalks", "--inputs", join(work, "rollouts_materialized_inputs.jsonl"), "--rollouts", join(work, "rollouts.jsonl"), "-o", join(work, "reverified.jsonl"), "--force"]);
    expect(r.stderr).not.toContain("Error");
    expect(r.code).toBe(0);
    const got = readFileSync(join(work, "unsafe_reverified.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(got.map((row) => [row._ng_task_index, row._ng_rollout_index, row.reward, row.f1, row.predicted_nodes])).toEqual(stamped.map((row) => [row._ng_task_index, row._ng_rollout_index, row.reward, row.f1, row.predicted_nodes]));
    const metrics = JSON.parse(readFileSync(join(work, "unsafe_reverified_aggregate_metrics.json"), "utf8"));
    expect(JSON.stringify(metrics)).toContain("problem_type=bfs/pass@1/accuracy");
  }, 120_000);
});

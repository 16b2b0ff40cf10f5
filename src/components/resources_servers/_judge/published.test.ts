// End to end on the compiled binary: NeMo Gym's published rollouts of judged servers re-scored by
// `gym eval reverify`, the judge an openai_model instance whose upstream (127.0.0.1) replays the judge answers
// stored in those rollouts. Each output row is compared field by field with the published one (pins as in the
// servers' own tests).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import { ensureBinary, gym } from "../../../testing/binary.ts";
import { readJsonlFile } from "../_common/testing.ts";
import { differingKeys } from "./parity.ts";
import { promptOfRequest, replayJudgeApp, textCompletion, textResponse, type JudgeLookup } from "./replay.ts";

type Row = Record<string, any>;
const servers = join(import.meta.dir, "..");
let dir: string;
let judge: ServedApp;
let lookup: JudgeLookup = () => undefined;

beforeAll(async () => {
  await ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "gym-judge-published-"));
  judge = await serve(replayJudgeApp((path, body) => lookup(path, body)).fetch);
}, 120_000);
afterAll(async () => {
  await judge?.stop();
});

const agentRef = (server: string) => ({ type: "responses_api_agents", name: `${server}_simple_agent` });

/** Writes the judge instance config and the run's materialized inputs (each rollout's task keys + its indices). */
function setUp(server: string, instance: string, taskKeys: string[], rollouts: Row[]): { config: string; inputs: string; rolloutsPath: string } {
  const config = join(dir, `${server}-judge.yaml`);
  writeFileSync(config, `${instance}:\n  responses_api_models:\n    openai_model:\n      entrypoint: app.py\n      openai_base_url: ${judge.url}/v1\n      openai_api_key: sk-replay\n      openai_model: replayed-judge\n`);
  const inputs = join(dir, `${server}_materialized_inputs.jsonl`);
  writeFileSync(inputs, rollouts.map((r) => JSON.stringify({ ...Object.fromEntries(taskKeys.filter((k) => k in r).map((k) => [k, r[k]])), _ng_task_index: r._ng_task_index, _ng_rollout_index: r._ng_rollout_index, agent_ref: agentRef(server) })).join("\n") + "\n");
  const rolloutsPath = join(dir, `${server}_rollouts.jsonl`);
  // The published rows name their benchmark's agent; here they run under the server's own config and agent.
  writeFileSync(rolloutsPath, rollouts.map((r) => JSON.stringify({ ...r, agent_ref: agentRef(server) })).join("\n") + "\n");
  return { config, inputs, rolloutsPath };
}

async function reverify(server: string, instance: string, taskKeys: string[], extra: string[] = []): Promise<{ rows: Row[]; published: Row[] }> {
  const published = readJsonlFile<Row>(join(servers, server), "data/example_rollouts.jsonl");
  const { config, inputs, rolloutsPath } = setUp(server, instance, taskKeys, published);
  const out = join(dir, `${server}_reverified.jsonl`);
  const r = await gym(["eval", "reverify", "--force", "--resources-server", server, "--config", config, "--inputs", inputs, "--rollouts", rolloutsPath, "-o", out, ...extra], { cwd: dir });
  expect({ code: r.code, stderr: r.code === 0 ? "" : r.stderr }).toEqual({ code: 0, stderr: "" });
  const rows = readFileSync(join(dir, `unsafe_${server}_reverified.jsonl`), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Row);
  const key = (x: Row) => `${x._ng_task_index}/${x._ng_rollout_index}`;
  rows.sort((a, b) => published.findIndex((p) => key(p) === key(a)) - published.findIndex((p) => key(p) === key(b)));
  return { rows, published };
}

/** Answers a prompt with the first not yet used recorded answer whose prompt matches. */
function queue(entries: { prompt: string; answer: Row }[], match: (prompt: string, recorded: string) => boolean = (a, b) => a === b): JudgeLookup {
  const left = [...entries];
  return (_path, body) => {
    const prompt = promptOfRequest(body);
    const at = left.findIndex((e) => match(prompt, e.prompt));
    return at < 0 ? undefined : left.splice(at, 1)[0]!.answer;
  };
}

describe("published rollouts re-scored by `gym eval reverify` on the binary (judge replayed over HTTP)", () => {
  test("aalcr: 5 of 5 exact (Responses judge)", async () => {
    const rollouts = readJsonlFile<Row>(join(servers, "aalcr"), "data/example_rollouts.jsonl");
    lookup = queue(rollouts.map((r) => ({ prompt: r.judge_responses_create_params.input[0].content, answer: r.judge_response })));
    const taskKeys = ["responses_create_params", "document_category", "document_set_id", "question_id", "question", "answer", "data_source_filenames", "data_source_urls", "input_tokens", "input_tokens_band"];
    const { rows, published } = await reverify("aalcr", "Qwen3-235B-A22B-Instruct-2507-FP8", taskKeys);
    expect(rows.map((row, i) => differingKeys(row, published[i]!, { added: ["invalid_model_response"] }))).toEqual([[], [], [], [], []]);
  }, 60_000);

  test("omniscience: 5 of 5 verdicts and rewards, the stale row 2 pinned as in its own test (Chat Completions judge)", async () => {
    const rollouts = readJsonlFile<Row>(join(servers, "omniscience"), "data/example_rollouts.jsonl");
    const used = new Set<Row>();
    lookup = (_path, body) => {
      const prompt = promptOfRequest(body);
      const hit = rollouts.find((r) => !used.has(r) && prompt.includes(r.question) && prompt.includes(`${r.extracted_answer}`));
      if (hit) used.add(hit);
      return hit && textCompletion(hit.judge_output);
    };
    const { rows, published } = await reverify("omniscience", "genrm_model", ["responses_create_params", "id", "domain", "topic", "question", "expected_answer"]);
    expect(rows.map((row, i) => differingKeys(row, published[i]!))).toEqual([[], [], ["extracted_answer"], [], []]);
  }, 60_000);
});

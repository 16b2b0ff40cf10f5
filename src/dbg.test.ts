import { test } from "bun:test";
import { post, readJsonlFile } from "./components/resources_servers/_common/testing.ts";
import { judgeDirectory, replayByPrompt, replayJudgeApp } from "./components/resources_servers/_judge/replay.ts";
import { verifyBodyOf } from "./components/resources_servers/_judge/parity.ts";
import createServer from "./components/resources_servers/math_with_autograder/index.ts";
const dir = "/work/wt/judges/src/components/resources_servers/math_with_autograder";
const rows = readJsonlFile<any>(dir, "data/example.jsonl");
const rollouts = readJsonlFile<any>(dir, "data/example_rollouts.jsonl");
const diff = (x: any, y: any) => { const a = JSON.stringify(x), b = JSON.stringify(y); let i = 0; while (a[i] === b[i] && i < a.length) i++; console.log("OURS", a.slice(Math.max(0,i-150), i+100), i); console.log("THEIRS", b.slice(Math.max(0,i-150), i+100)); };
test("dbg", async () => {
  const judge = replayByPrompt(rollouts.flatMap((r) => (r.judge_evaluations ?? []).map((e: any) => ({ prompt: e.responses_create_params.input.at(-1).content, answer: e.response }))));
  const app = createServer({ judge_model_server: { type: "responses_api_models", name: "judge" }, judge_responses_create_params: { input: [], max_output_tokens: 2048, temperature: 0.0, top_p: 1.0 } }, { name: "x", servers: judgeDirectory("judge", replayJudgeApp(judge)) });
  const r = await post(app, "/verify", verifyBodyOf(rollouts[0], rows[0]));
  diff(r.body.judge_evaluations, rollouts[0].judge_evaluations);
});

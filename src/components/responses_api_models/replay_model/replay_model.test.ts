import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { InProcessServerClient } from "../../../servers/in-process.ts";
import replayModel from "./index.ts";

const FILE = join(import.meta.dir, "../../../../fixtures/servers/example_single_tool_call_rollouts.jsonl");
const recorded = readFileSync(FILE, "utf8").trim().split("\n").map((l) => JSON.parse(l));

describe("replay_model", () => {
  test("answers a recorded prompt with the recorded turn (typed or untyped prompt messages match)", async () => {
    const client = new InProcessServerClient("replay", await replayModel({ name: "policy_model", rollouts_jsonl_fpath: FILE }, {} as never));
    const row = recorded[0];
    const untyped = row.responses_create_params.input.map(({ type: _t, ...rest }: any) => rest);
    const { body } = await client.call<any>("/v1/responses", { input: untyped });
    expect(body.output).toEqual(row.response.output);
    expect(body.model).toBe(row.response.model);
    expect(body.usage).toEqual(row.response.usage);
  });

  test("multi-turn: the second call continues the same recording after the tool output; unknown prompts are a 404", async () => {
    const client = new InProcessServerClient("replay", await replayModel({ name: "policy_model", rollouts_jsonl_fpath: FILE }, {} as never));
    const row = recorded[1];
    const [call, toolOutput, message] = row.response.output;
    expect([call.type, toolOutput.type, message.type]).toEqual(["function_call", "function_call_output", "message"]);
    const prompt = row.responses_create_params.input;
    const first = await client.call<any>("/v1/responses", { input: prompt });
    expect(first.body.output).toEqual([call]);
    expect(first.body.usage).toBeNull();
    const second = await client.call<any>("/v1/responses", { input: [...prompt, call, { type: "function_call_output", call_id: call.call_id, output: "x" }] }, { cookies: first.cookies });
    expect(second.body.output).toEqual([message]);
    expect(second.body.usage).toEqual(row.response.usage);
    const unknown = await client.post("/v1/responses", { input: "never recorded" });
    expect(unknown.status).toBe(404);
  });
});

import { describe, expect, test } from "bun:test";
import { Judge, judgeConfigFields, JudgeError, lastOutputText, pyFormat, readPromptFile } from "./index.ts";
import { judgeDirectory, textResponse } from "./replay.ts";
import { validateModel } from "../../../servers/resources/fields.ts";

const config = (extra: Record<string, unknown> = {}) =>
  validateModel({ fields: judgeConfigFields() }, {
    judge_model_server: { type: "responses_api_models", name: "judge" },
    judge_responses_create_params: { input: [], max_output_tokens: 16 },
    ...extra,
  }).value as any;

describe("Judge", () => {
  test("sends the config's create params with input replaced, and keeps both sides dumped", async () => {
    let seen: any;
    const app = { fetch: async (r: Request) => ((seen = await r.json()), Response.json(textResponse("[[A=B]]"))) };
    const cfg = config();
    const exchange = await new Judge(cfg, judgeDirectory("judge", app)).responses([{ role: "user", content: "q" }]);
    expect(seen).toEqual({ input: [{ role: "user", content: "q" }], max_output_tokens: 16 });
    expect(cfg.judge_responses_create_params.input).toEqual([]); // a copy is sent, the config is untouched
    expect(Object.keys(exchange.responses_create_params)).toContain("temperature");
    expect(lastOutputText(exchange.response)).toBe("[[A=B]]");
  });

  test("judge_endpoint_max_concurrency bounds the calls in flight (default 64; null = unbounded)", async () => {
    let inFlight = 0;
    let max = 0;
    const app = {
      fetch: async () => {
        max = Math.max(max, ++inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        return Response.json(textResponse("ok"));
      },
    };
    const judge = new Judge(config({ judge_endpoint_max_concurrency: 2 }), judgeDirectory("judge", app));
    await Promise.all(Array.from({ length: 8 }, () => judge.responses("x")));
    expect(max).toBe(2);
    expect(config().judge_endpoint_max_concurrency).toBe(64);
  });

  test("a 429 is waited out (Retry-After honoured); a 500 or a non-Responses body is a JudgeError", async () => {
    let calls = 0;
    const limited = { fetch: async () => (++calls === 1 ? new Response("slow down", { status: 429, headers: { "retry-after": "0" } }) : Response.json(textResponse("fine"))) };
    const exchange = await new Judge(config(), judgeDirectory("judge", limited)).responses("x");
    expect(calls).toBe(2);
    expect(lastOutputText(exchange.response)).toBe("fine");
    for (const answer of [new Response("boom", { status: 500 }), Response.json({ id: "x" }), new Response("<html>", { status: 200 })]) {
      const judge = new Judge(config(), judgeDirectory("judge", { fetch: async () => answer.clone() }));
      await expect(judge.responses("x")).rejects.toBeInstanceOf(JudgeError);
    }
    const missing = new Judge(config(), { get: () => { throw new Error("No server instance named 'judge' is configured."); } });
    await expect(missing.responses("x")).rejects.toThrow("No server instance named 'judge'");
  });

  test("the config is checked: a judge_model_server that is not a model server reference is refused", () => {
    const { issues } = validateModel({ fields: judgeConfigFields() }, { judge_model_server: { type: "resources_servers", name: "x" }, judge_responses_create_params: { input: [] } });
    expect(issues.map((i) => i.loc.join("."))).toEqual(["body.judge_model_server"]);
  });
});

describe("prompts", () => {
  test("pyFormat: Python str.format for named fields, {{ }} literal, unknown names a KeyError", () => {
    expect(pyFormat("{{x}} {a}-{b}", { a: "1", b: "{c}" })).toBe("{x} 1-{c}");
    expect(() => pyFormat("{nope}", {})).toThrow("KeyError: 'nope'");
    expect(() => pyFormat("a } b", {})).toThrow("Single '}'");
  });
  test("readPromptFile: NeMo Gym's paths relative to the server folder resolve among the built-in files", async () => {
    expect(await readPromptFile("prompts/judge.yaml", "simpleqa", "judge_prompt_path")).toContain("{generation}");
    await expect(readPromptFile("nope.txt", "simpleqa", "judge_prompt_path")).rejects.toThrow("simpleqa.judge_prompt_path");
  });
});

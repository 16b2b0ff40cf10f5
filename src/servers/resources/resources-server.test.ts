import { describe, expect, test } from "bun:test";
import { fullResponse, post } from "../../components/resources_servers/_common/testing.ts";
import { defineResourcesServer, JudgeError, py, reraiseJudgeErrors } from "./index.ts";

const params = { input: [{ role: "user", content: "Q?" }] };
const response = fullResponse({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "A" }] }] });

/** A small server exercising every hook: declared fields, a judge that can fail, state, a tool, seeding. */
const createToy = defineResourcesServer<{ mode: string }, Map<string, string[]>>({
  name: "toy",
  className: "ToyResourcesServer",
  config: { fields: { mode: py.withDefault(py.literal(["strict", "loose"]), () => "strict") } },
  createState: () => new Map(),
  seedSession: {
    handler(body, { state, sessionId }) {
      state.set(sessionId, [String(body.tag ?? "")]);
    },
  },
  verify: {
    request: { fields: { expected: py.str(), weight: py.withDefault(py.float(), () => 1), judge: py.withDefault(py.bool(), () => false) } },
    response: ["expected", "mode", "seen", "rollout"],
    async handler(body, { config, state, sessionId, rolloutId }) {
      if (body.judge) await reraiseJudgeErrors(Promise.reject(new TypeError("judge unreachable")));
      return { reward: (body.weight as number) * 1, mode: config.mode, seen: state.get(sessionId) ?? [], rollout: rolloutId ?? null };
    },
  },
  tools: {
    boom: {
      handler() {
        throw new Error("tool exploded");
      },
    },
  },
});

describe("defineResourcesServer", () => {
  test("verify echoes declared fields in the response model's order and drops the others", async () => {
    const reply = await post(createToy({ mode: "loose" }), "/verify", { responses_create_params: params, extra: 1, expected: "x", response });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body)).toEqual(["responses_create_params", "response", "reward", "expected", "mode", "seen", "rollout"]);
    expect(reply.body).toMatchObject({ reward: 1, expected: "x", mode: "loose", seen: [], rollout: null });
    // Echoed as model_dump() writes them: the params gain their 23 keys.
    expect(Object.keys(reply.body.responses_create_params)).toHaveLength(23);
  });

  test("pydantic-style coercion and FastAPI 422 entries for declared fields", async () => {
    const ok = await post(createToy(), "/verify", { responses_create_params: params, response, expected: "x", weight: "0.5" });
    expect(ok.body.reward).toBe(0.5);
    const bad = await post(createToy(), "/verify", { responses_create_params: params, response, weight: "heavy" });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([
      { type: "missing", loc: ["body", "expected"], msg: "Field required", input: expect.any(Object) },
      { type: "float_parsing", loc: ["body", "weight"], msg: "Input should be a valid number, unable to parse string as a number", input: "heavy" },
    ]);
    const notObject = await post(createToy(), "/verify", [1, 2]);
    expect(notObject.body.detail[0]).toMatchObject({ type: "model_attributes_type", loc: ["body"] });
    const res = await createToy().request("http://localhost/verify", { method: "POST", body: "{oops" });
    expect(res.status).toBe(422);
    expect((await res.json()).detail[0].type).toBe("json_invalid");
  });

  test("a failed judge call is a scored 0 with _ng_failure_class, not an error", async () => {
    const reply = await post(createToy(), "/verify", { responses_create_params: params, response, expected: "x", judge: true });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ reward: 0, expected: "x", weight: 1, judge: true, _ng_failure_class: "judge_failed", _ng_failure_judge_error: "TypeError: judge unreachable" });
  });

  test("JudgeError thrown directly keeps its message", async () => {
    await expect(reraiseJudgeErrors(Promise.reject(new JudgeError("as is")))).rejects.toThrow("as is");
  });

  test("seed_session answers {} and state follows the session cookie", async () => {
    const app = createToy();
    const seeded = await post(app, "/seed_session", { tag: "t1" });
    expect(seeded.body).toEqual({});
    const reply = await post(app, "/verify", { responses_create_params: params, response, expected: "x" }, seeded.cookie);
    expect(reply.body.seen).toEqual(["t1"]);
    expect((await post(app, "/verify", { responses_create_params: params, response, expected: "x" })).body.seen).toEqual([]);
  });

  test("the rollout prefix is stripped and its id reaches the handler", async () => {
    const reply = await post(createToy(), "/ng-rollout/7-2-a1/verify", { responses_create_params: params, response, expected: "x" });
    expect(reply.body.rollout).toBe("7-2-a1");
  });

  test("an unhandled exception is a 500 with Python's repr and no Set-Cookie; GET /reverify_mode defaults to unknown", async () => {
    const app = createToy();
    const boom = await post(app, "/boom", {});
    expect(boom.status).toBe(500);
    expect(boom.body).toBe("Exception('tool exploded')");
    expect(boom.cookie).toBeUndefined();
    expect(await (await app.request("http://localhost/reverify_mode")).json()).toBe("unknown");
  });

  test("the cookie is named <Class>___<instance> and survives a round trip", async () => {
    const app = createToy({}, { name: "my_toy" });
    const first = await post(app, "/seed_session", { tag: "a" });
    expect(first.cookie).toStartWith("ToyResourcesServer___my_toy=");
    const second = await post(app, "/verify", { responses_create_params: params, response, expected: "x" }, first.cookie);
    expect(second.body.seen).toEqual(["a"]);
  });

  test("/aggregate_metrics: baseline statistics, 422 for a missing list", async () => {
    const app = createToy();
    const rows = [
      { reward: 1.0, _ng_task_index: 0, _ng_rollout_index: 0 },
      { reward: 0.0, _ng_task_index: 0, _ng_rollout_index: 1 },
    ];
    const reply = await post(app, "/aggregate_metrics", { verify_responses: rows });
    expect(reply.body.agent_metrics["mean/reward"]).toBe(0.5);
    expect(reply.body.key_metrics).toMatchObject({ "mean/reward": 0.5 });
    expect((await post(app, "/aggregate_metrics", {})).status).toBe(422);
  });
});

// vLLM cannot be installed here (no GPU): these tests start fixtures/models/bin/vllm, a stand-in that parses
// `vllm serve`'s flags and serves its OpenAI routes (see fixtures/models/README.md). What is under test is gym's
// process handling: arguments, environment, readiness, stopping, and the refusals.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processAlive } from "../../../runtime/files.ts";
import { mcqaOnBinary } from "../../../testing/mcqa-e2e.ts";
import { pathWithoutVllm, pathWithStandIn, standInSubject, withEnv } from "../../../testing/vllm-stand-in.ts";
import { modelConformanceSuite } from "../conformance.case.ts";
import localVllmFactory, { buildLocalVllmModel } from "./index.ts";
import { vllmServeArgv } from "./serve-args.ts";

const context = { name: "policy_model", serverType: "responses_api_models", implementation: "local_vllm_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} } as const;
const MODEL = "Qwen/Qwen3-0.6B";
const block = (extra: Record<string, unknown> = {}) => ({
  name: "policy_model",
  model: MODEL,
  uses_reasoning_parser: false,
  hf_home: "/models/hf",
  vllm_serve_env_vars: { VLLM_RAY_DP_PACK_STRATEGY: "strict" },
  vllm_serve_kwargs: { data_parallel_size: 1, tensor_parallel_size: 1, pipeline_parallel_size: 1, trust_remote_code: true, gpu_memory_utilization: 0.9, enable_auto_tool_choice: true, tool_call_parser: "hermes", model_loader_extra_config: { enable_multithread_load: true, num_threads: 16 } },
  upstream: { baseDelayMs: 1, maxDelayMs: 5 },
  ...extra,
});

modelConformanceSuite("local_vllm_model (stand-in vllm on PATH)", () =>
  withEnv({ PATH: pathWithStandIn() }, async () => {
    const { app, vllm } = await buildLocalVllmModel(block(), context, { className: "LocalVLLMModel" });
    return standInSubject(app, MODEL, vllm!.baseUrl, () => vllm!.stop());
  }),
);

describe("local_vllm_model: starting and stopping vllm serve", () => {
  test("vllm serve gets the model, NeMo Gym's flags, a free port and the download dir; HF variables and the config's own", async () => {
    const record = join(mkdtempSync(join(tmpdir(), "gym-vllm-")), "starts.jsonl");
    await withEnv({ PATH: pathWithStandIn(), VLLM_STANDIN_RECORD: record, HF_TOKEN: undefined }, async () => {
      const { app, vllm } = await buildLocalVllmModel(block(), { ...context, globalConfig: { hf_token: "hf_secret" } }, { className: "LocalVLLMModel" });
      try {
        const started = JSON.parse(readFileSync(record, "utf8").trim());
        const port = new URL(vllm!.baseUrl).port;
        expect(started.argv).toEqual([
          "serve", MODEL, "--host", "127.0.0.1", "--data-parallel-size", "1", "--tensor-parallel-size", "1", "--pipeline-parallel-size", "1", "--trust-remote-code",
          "--gpu-memory-utilization", "0.9", "--enable-auto-tool-choice", "--tool-call-parser", "hermes",
          "--model-loader-extra-config", '{"enable_multithread_load":true,"num_threads":16}', "--port", port, "--download-dir", "/models/hf/hub",
        ]);
        expect(started.env).toMatchObject({ HF_HOME: "/models/hf", HF_HUB_ENABLE_HF_TRANSFER: "1", HF_TOKEN: "hf_secret", VLLM_RAY_DP_PACK_STRATEGY: "strict" });
        const inner = await (await app.request("/get_inner_vllm_config")).json();
        expect(inner).toEqual({ base_url: [vllm!.baseUrl], api_key: "dummy", model: MODEL });
        expect(processAlive(started.pid)).toBe(true);
        await vllm!.stop();
        expect(processAlive(started.pid)).toBe(false);
      } finally {
        await vllm?.stop();
      }
    });
  }, 60_000);

  test("flags: false and null are left out, lists are repeated values, a model in the kwargs does not override the config's", () => {
    expect(vllmServeArgv({ model: "m", hf_home: "/h", vllm_serve_kwargs: { model: "other", enforce_eager: false, max_model_len: null, host: "0.0.0.0", served_model_name: ["a", "b"] } }, 9, "/cwd")).toEqual([
      "serve", "m", "--host", "0.0.0.0", "--served-model-name", "a", "b", "--port", "9", "--download-dir", "/h/hub",
    ]);
    expect(vllmServeArgv({ model: "m" }, 9, "/work")).toContain("/work/.cache/huggingface/hub");
  });

  test("without vllm on PATH the server is refused, naming vLLM and what to install", async () => {
    const error = await withEnv({ PATH: pathWithoutVllm() }, () => Promise.resolve(localVllmFactory(block(), context)).catch((e) => e));
    expect(error).toMatchObject({ code: "E_SERVER", message: "Model server `policy_model` starts a local vLLM (`vllm serve`), but no `vllm` executable is on PATH." });
    expect(error.hint).toContain("pip install vllm");
    expect(error.hint).toContain("NVIDIA GPU");
  });

  test("a vLLM that exits before it is ready (no GPU) is refused with its last log lines", async () => {
    const error = await withEnv({ PATH: pathWithStandIn(), VLLM_STANDIN_NO_GPU: "1" }, () => Promise.resolve(localVllmFactory(block(), context)).catch((e) => e));
    expect(error.code).toBe("E_SERVER");
    expect(error.message).toStartWith("`vllm serve` for `policy_model` exited (code 1) before it was ready. Its last lines:");
    expect(error.message).toContain("RuntimeError: Failed to infer device type");
    expect(error.hint).toContain("NVIDIA GPU with CUDA");
  }, 30_000);

  test("a flag vLLM does not know fails the start the way vLLM fails it", async () => {
    const error = await withEnv({ PATH: pathWithStandIn() }, () => Promise.resolve(localVllmFactory(block({ vllm_serve_kwargs: { no_such_flag: 3 } }), context)).catch((e) => e));
    expect(error.message).toContain("vllm: error: unrecognized arguments: --no-such-flag 3");
  }, 30_000);

  test("with base_url set nothing is started: the configured vLLM is used", async () => {
    const { app, vllm } = await withEnv({ PATH: pathWithoutVllm() }, () => buildLocalVllmModel(block({ base_url: "http://127.0.0.1:9/v1" }), context, {}));
    expect(vllm).toBeUndefined();
    expect(await (await app.request("/get_inner_vllm_config")).json()).toMatchObject({ base_url: ["http://127.0.0.1:9/v1"] });
  });
});

describe("gym eval run on the binary through local_vllm_model", () => {
  test("mcqa end to end: the stand-in vllm is started, answers every rollout, and is stopped when gym exits", async () => {
    const record = join(mkdtempSync(join(tmpdir(), "gym-vllm-e2e-")), "starts.jsonl");
    const r = await mcqaOnBinary(["--model-type", "local_vllm_model", "--model", MODEL], { PATH: pathWithStandIn(), VLLM_STANDIN_RECORD: record });
    expect(r.stderr).toContain("Coverage: 8 of 8 rollouts scored");
    expect(r.code).toBe(0);
    expect(r.rollouts.every((row: any) => row.response.model === MODEL && typeof row.reward === "number")).toBe(true);
    const starts = readFileSync(record, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(starts).toHaveLength(1);
    expect(starts[0].argv.slice(0, 2)).toEqual(["serve", MODEL]);
    // Killed at gym's exit; give the signal a moment to land.
    for (let i = 0; i < 50 && processAlive(starts[0].pid); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(processAlive(starts[0].pid)).toBe(false);
  }, 120_000);

  test("without vllm on PATH the run is refused before any rollout, naming vLLM", async () => {
    const r = await mcqaOnBinary(["--model-type", "local_vllm_model", "--model", MODEL], { PATH: pathWithoutVllm() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("starts a local vLLM (`vllm serve`), but no `vllm` executable is on PATH");
    expect(r.stderr).toContain("pip install vllm");
    expect(r.rollouts).toEqual([]);
  }, 120_000);
});

/** Small pieces of the cluster module: sbatch output pairing, the recover decision, Slurm times, flattening, the schema. */
import { describe, expect, test } from "bun:test";
import { SUBMIT_SCHEMA } from "./config.ts";
import { decide, type Evidence } from "./recover.ts";
import { parseSbatchOutput } from "./sbatch.ts";
import { check, SchemaIssue } from "./schema.ts";
import { flattenOverrides, slurmSeconds } from "./shell.ts";
import { newGymJobId, GYM_JOB_ID, parseRecord } from "./records.ts";

describe("sbatch output", () => {
  test("pairs job ids with benchmarks and records a failure for the one sbatch refused", () => {
    const out = ["__GYM_BENCHMARK:a", "Submitted batch job 7", "__GYM_BENCHMARK:b", "__GYM_SBATCH_FAILED:sbatch: error: Batch job submission failed: Invalid job array specification", "__GYM_BENCHMARK:c", "Submitted batch job 9", "Submitted aggregate job 10", "__GYM_BENCHMARK:d"].join("\n");
    const r = parseSbatchOutput(out, ["a", "b", "c", "d"]);
    expect(r.get("a")).toEqual({ job_id: "7" });
    expect(r.get("b")!.error).toContain("Invalid job array specification");
    expect(r.get("c")).toEqual({ job_id: "9", aggregate_job_id: "10" });
    expect(r.get("d")!.error).toContain("job ID unavailable");
  });
});

const evidence = (states: Partial<Evidence["states"]>, expected = 10): Evidence => ({
  stems: [], expected, infraRetries: 0, accumulatedWalltimeS: 0, maxWalltimeS: null, chain: [],
  states: { scored: 0, model_final: 0, judge_recoverable: 0, retryable: 0, exhausted: 0, terminal: 0, missing: 0, omitted: 0, ...states },
});

describe("resubmit --recover decides one action", () => {
  const cmd = "gym eval resubmit gym-job-x b --recover";
  test("complete (scored and model-final) → nothing, SUCCESS", () => {
    expect(decide(evidence({ scored: 8, model_final: 2 }), cmd)).toMatchObject({ action: "nothing", gate_task: { status: "SUCCESS", completed: 10 } });
  });
  test("retryable or never-started work → resubmit, PENDING", () => {
    expect(decide(evidence({ scored: 7, retryable: 2, missing: 1 }), cmd)).toMatchObject({ action: "resubmit", gate_task: { status: "PENDING" } });
  });
  test("a chain at its max_walltime stops, naming --max-walltime and --walltime-reason", () => {
    const stop = decide({ ...evidence({ scored: 7, retryable: 3 }), accumulatedWalltimeS: 7200, maxWalltimeS: 7200 }, cmd);
    expect(stop).toMatchObject({ action: "stop", gate_task: { status: "BLOCKED" } });
    expect(stop.fix).toContain("--max-walltime HH:MM:SS --walltime-reason");
  });
  test("judge failures with saved answers → rejudge, never the policy", () => {
    expect(decide(evidence({ scored: 9, judge_recoverable: 1 }), cmd).action).toBe("rejudge");
  });
  test("terminal failures block; exhausted attempts stop with the plain resubmit as the fix", () => {
    expect(decide(evidence({ scored: 9, terminal: 1 }), cmd)).toMatchObject({ action: "stop", gate_task: { status: "BLOCKED" } });
    const stop = decide(evidence({ scored: 9, exhausted: 1 }), cmd);
    expect(stop).toMatchObject({ action: "stop", gate_task: { status: "BLOCKED" } });
    expect(stop.fix!.startsWith("gym eval resubmit gym-job-x b ")).toBe(true);
    expect(stop.fix).not.toContain("b --recover");
  });
  test("omissions alone complete a run with successes; a run of omissions only is blocked", () => {
    expect(decide(evidence({ scored: 8, omitted: 2 }), cmd).gate_task.status).toBe("SUCCESS");
    expect(decide(evidence({ omitted: 10 }), cmd).gate_task.status).toBe("BLOCKED");
  });
});

describe("shell text", () => {
  test("Slurm times in seconds", () => {
    expect([slurmSeconds("30"), slurmSeconds("1:30"), slurmSeconds("02:00:00"), slurmSeconds("2-03"), slurmSeconds("1-00:00:01")]).toEqual([1800, 90, 7200, 183600, 86401]);
  });
  test("run mappings flatten to quoted +a.b=v tokens", () => {
    expect(flattenOverrides({ config_paths: ["a.yaml", "b.yaml"], responses_create_params: { temperature: 0.6 }, note: "it's x" })).toEqual(["'+config_paths=[a.yaml,b.yaml]'", "+responses_create_params.temperature=0.6", `'+note=it'\\''s x'`]);
  });
});

describe("records and schema", () => {
  test("gym job ids", () => {
    expect(newGymJobId(new Date("2026-10-16T12:00:00.123Z"))).toMatch(/^gym-job-20261016T120000Z-[0-9a-f]{6}$/);
    expect(GYM_JOB_ID.test(newGymJobId())).toBe(true);
  });
  test("records newer than this reader are refused", () => {
    expect(() => parseRecord(JSON.stringify({ schema_version: 2, benchmarks: [], run_dir: "/x" }), "r.json")).toThrow(/schema_version 2/);
    expect(parseRecord(JSON.stringify({ schema_version: 1, benchmarks: [], run_dir: "/x", extra: 1 }), "r.json").run_dir).toBe("/x");
  });
  test("defaults are filled and unknown keys are refused by path", () => {
    const config = check(SUBMIT_SCHEMA, { compute: { c: { type: "slurm", account: "a" } }, driver: { benchmarks: { b: {} } }, job: { output_path: "/o" } }, "") as any;
    expect(config.driver.benchmarks.b).toEqual({ prepare: {}, run: {}, resumable: false, shards: 1 });
    expect(config.driver.container).toBeNull();
    expect(() => check(SUBMIT_SCHEMA, { ...config, services: { p: { type: "vllm", container: "x", model: "m", prot: 1 } } }, "")).toThrow(SchemaIssue);
    try {
      check(SUBMIT_SCHEMA, { ...config, services: { p: { type: "vllm", container: "x", model: "m", prot: 1 } } }, "");
    } catch (e) {
      expect((e as SchemaIssue).path).toBe("services.p.prot");
      expect((e as SchemaIssue).hint).toContain("services.p.port");
    }
    expect(() => check(SUBMIT_SCHEMA, { ...config, services: { p: { type: "sglang", container: "x" } } }, "")).toThrow(/services\.p\.type: expected one of vllm, ray/);
  });
});

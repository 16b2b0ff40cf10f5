/** `gym eval export mlflow|wandb`, receipts and live tracking, on the binary against local MLflow and W&B stand-ins. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../testing/binary.ts";
import { startFakeMlflow, startFakeWandb, type FakeServer, type MlflowRun, type WandbRun } from "../testing/tracking-fakes.ts";

let dir: string;
let mlflow: FakeServer<MlflowRun>;
let wandb: FakeServer<WandbRun>;
const WANDB_KEY = "w".repeat(40);
const at = (name: string) => join(dir, "results", name);
const inDir = (args: string[], env: Record<string, string> = {}) => gym(args, { cwd: dir, env });
const mlflowKeys = (token = "tok") => ["+rollouts_jsonl_fpath=results/mcqa.jsonl", `+mlflow_tracking_uri=${mlflow.url}`, "+mlflow_experiment_name=gym", "+mlflow_run_name=nightly", `+mlflow_tracking_token=${token}`];
/** The metrics file rewritten as it is, so it is newer than the rollouts again. */
const touchMetrics = () => writeFileSync(at("mcqa_aggregate_metrics.json"), readFileSync(at("mcqa_aggregate_metrics.json"), "utf8"));
const wandbEnv = () => ({ WANDB_API_KEY: WANDB_KEY, WANDB_BASE_URL: wandb.url });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "gym-export-"));
  mlflow = await startFakeMlflow({ key: "tok" });
  wandb = await startFakeWandb({ key: WANDB_KEY });
  const run = await inDir(["eval", "run", "--resources-server", "mcqa", "--model-type", "replay_model/mcqa_example", "-o", "results/mcqa.jsonl"]);
  expect(run.code).toBe(0);
});
afterAll(async () => {
  await mlflow.stop();
  await wandb.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("gym eval export mlflow", () => {
  test("sends config, metrics and rollouts once; the receipt makes a second export a no-op", async () => {
    const first = await inDir(["eval", "export", "mlflow", ...mlflowKeys(), "--json"]);
    expect(first.stderr).not.toContain("Error");
    expect(first.code).toBe(0);
    const result = JSON.parse(first.stdout);
    expect(result).toMatchObject({ status: "exported", version: 1, exporter: "mlflow", rollouts_uploaded: true, rollout_projection_version: 1 });
    expect(Object.keys(result.files).sort()).toEqual(["aggregate_metrics", "resolved_config", "rollouts"]);
    const run = mlflow.runs.at(-1)!;
    expect(run).toMatchObject({ run_id: result.backend_run.id, run_name: "nightly", status: "FINISHED" });
    expect(run.metrics["mcqa_simple_agent/mean/reward"]).toBe(0.8);
    expect(run.metrics["key_metrics/mcqa_simple_agent/pass_at_1/accuracy"]).toBe(80);
    // The run's <stem>_cost.json: NeMo Gym's recorded gpt-4.1 usage (1,061 in, 1,993 out) at the built-in $2 / $8.
    expect(run.metrics["cost/total_usd"]).toBeCloseTo((1061 * 2 + 1993 * 8) / 1e6, 12);
    expect(run.metrics["cost/input_tokens"]).toBe(1061);
    expect(JSON.parse(run.artifacts["rollouts.json"]!).data).toHaveLength(5);
    expect(JSON.parse(run.artifacts["global_config.json"]!)).toHaveProperty("mcqa_simple_agent");
    expect(JSON.parse(readFileSync(at("mcqa_mlflow_export_done"), "utf8")).backend_run.id).toBe(run.run_id);

    const runs = mlflow.runs.length;
    const again = await inDir(["eval", "export", "mlflow", ...mlflowKeys("wrong-token-never-used")]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("Already exported to mlflow");
    expect(mlflow.runs.length).toBe(runs);

    const status = JSON.parse((await inDir(["eval", "status", "results", "--json"])).stdout);
    expect(JSON.stringify(status)).toContain('"mlflow":{"completed":true');
  });

  test("a receipt that no longer matches, or a malformed one, fails and sends nothing", async () => {
    const receipt = at("mcqa_mlflow_export_done");
    const kept = readFileSync(receipt, "utf8");
    const rollouts = readFileSync(at("mcqa.jsonl"), "utf8");
    const runs = mlflow.runs.length;
    appendFileSync(at("mcqa.jsonl"), "\n");
    touchMetrics();
    const changed = await inDir(["eval", "export", "mlflow", ...mlflowKeys()]);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain("of different run files (rollouts changed); nothing was sent");
    writeFileSync(at("mcqa.jsonl"), rollouts);
    touchMetrics();
    writeFileSync(receipt, "done\n");
    const malformed = await inDir(["eval", "export", "mlflow", ...mlflowKeys()]);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain("is a legacy or malformed export marker");
    expect(mlflow.runs.length).toBe(runs);
    writeFileSync(receipt, kept);
  });

  test("a rejected key or a failing backend leaves no receipt, and the retry works", async () => {
    rmSync(at("mcqa_mlflow_export_done"));
    const rejected = await inDir(["eval", "export", "mlflow", ...mlflowKeys("bad")]);
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toContain("MLflow answered 401");
    expect(rejected.stderr).toContain("check the API key or token");
    expect(existsSync(at("mcqa_mlflow_export_done"))).toBe(false);
    mlflow.options.failWith = 500;
    const down = await inDir(["eval", "export", "mlflow", ...mlflowKeys()]);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain("MLflow answered 500");
    expect(existsSync(at("mcqa_mlflow_export_done"))).toBe(false);
    mlflow.options.failWith = undefined;
    expect((await inDir(["eval", "export", "mlflow", ...mlflowKeys()])).code).toBe(0);
    expect(existsSync(at("mcqa_mlflow_export_done"))).toBe(true);
  });

  test("missing run files and settings are named, with the command that makes them", async () => {
    rmSync(at("mcqa_mlflow_export_done"), { force: true });
    const missing = await inDir(["eval", "export", "mlflow", "+rollouts_jsonl_fpath=results/mcqa.jsonl", `+mlflow_tracking_uri=${mlflow.url}`]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("MLflow needs mlflow_experiment_name, mlflow_run_name");
    const none = await inDir(["eval", "export", "mlflow", ...mlflowKeys().slice(1), "+rollouts_jsonl_fpath=results/other.jsonl"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("other_resolved_config.yaml is missing");
    const unknown = await inDir(["eval", "export", "tensorboard"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Known exporters: atif, mlflow, wandb");
  });
});

describe("gym eval export wandb", () => {
  test("uses WANDB_API_KEY and WANDB_BASE_URL; +upload_rollouts=false sends config and metrics only", async () => {
    const result = await inDir(["eval", "export", "wandb", "+rollouts_jsonl_fpath=results/mcqa.jsonl", "+wandb_project=gym", "+wandb_name=nightly", "+upload_rollouts=false", "--json"], wandbEnv());
    expect(result.stderr).not.toContain("Error");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: "exported", rollouts_uploaded: false });
    const run = wandb.runs.at(-1)!;
    expect(run).toMatchObject({ project: "gym", displayName: "nightly", complete: true, exitcode: 0 });
    expect(run.summary["mcqa_simple_agent/mean/reward"]).toBe(0.8);
    expect(run.config).toHaveProperty("mcqa_simple_agent");
    expect(run.files).toEqual({});
  });
});

describe("live tracking during gym eval run", () => {
  test("the run shows up in MLflow and W&B while it goes, gets a receipt, and a later export is skipped", async () => {
    const live = await inDir(
      ["eval", "run", "--resources-server", "mcqa", "--model-type", "replay_model/mcqa_example", "-o", "results/live.jsonl", `+mlflow_tracking_uri=${mlflow.url}`, "+mlflow_experiment_name=gym", "+mlflow_run_name=live", "+mlflow_tracking_token=tok", "+wandb_project=gym", "+wandb_name=live"],
      wandbEnv(),
    );
    expect(live.stderr).not.toContain("Warning");
    expect(live.code).toBe(0);
    const ml = mlflow.runs.find((r) => r.run_name === "live")!;
    expect(ml.status).toBe("FINISHED");
    expect(JSON.parse(ml.artifacts["rollouts.json"]!).data).toHaveLength(5);
    expect(readFileSync(at("live_mlflow_run_id"), "utf8").trim()).toBe(ml.run_id);
    const wb = wandb.runs.find((r) => r.displayName === "live")!;
    expect(JSON.parse(wb.files["rollouts.table.json"]!).data).toHaveLength(5);
    expect(existsSync(at("live_wandb_export_done"))).toBe(true);
    const later = await inDir(["eval", "export", "mlflow", "+rollouts_jsonl_fpath=results/live.jsonl", `+mlflow_tracking_uri=${mlflow.url}`, "+mlflow_experiment_name=gym", "+mlflow_run_name=live", "+mlflow_tracking_token=tok"]);
    expect(later.stdout).toContain("Already exported to mlflow");
  });

  test("a failing tracking server never fails the evaluation; a half-named tracker is reported", async () => {
    mlflow.options.failWith = 503;
    const down = await inDir(["eval", "run", "--resources-server", "mcqa", "--model-type", "replay_model/mcqa_example", "-o", "results/down.jsonl", `+mlflow_tracking_uri=${mlflow.url}`, "+mlflow_experiment_name=gym", "+mlflow_run_name=down", "+wandb_project=gym"]);
    mlflow.options.failWith = undefined;
    expect(down.code).toBe(0);
    expect(down.stderr).toContain("MLflow live tracking failed to start");
    expect(down.stderr).toContain("W&B live tracking is off: it also needs +wandb_name=…, +wandb_api_key=…");
    expect(existsSync(at("down_mlflow_export_done"))).toBe(false);
  });
});

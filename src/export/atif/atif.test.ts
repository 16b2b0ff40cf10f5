/** `gym eval export atif` on the binary: trajectories recorded by simple_agent, the manifest, and the strict refusals. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../../testing/binary.ts";

let dir: string;
const inDir = (args: string[]) => gym(args, { cwd: dir });
const exportArgs = (rollouts: string, out: string) => ["eval", "export", "atif", `+rollouts_jsonl_fpath=${rollouts}`, `+output_dirpath=${out}`, "+session_id=eval-2026-12-01", "--agent-version", "1.2.3"];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "gym-atif-"));
  for (const [server, model, out, extra] of [
    ["mcqa", "replay_model/mcqa_example", "results/mcqa.jsonl", ["+observability_enabled=true"]],
    ["example_multi_step", "mock_model", "results/steps.jsonl", ["+observability_enabled=true"]],
    ["mcqa", "replay_model/mcqa_example", "results/plain.jsonl", []],
  ] as const) {
    const run = await inDir(["eval", "run", "--resources-server", server, "--model-type", model, "-o", out, ...extra]);
    expect([out, run.code]).toEqual([out, 0]);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("gym eval export atif", () => {
  test("one ATIF v1.7 trajectory per rollout and a manifest that pins each file", async () => {
    const result = await inDir(exportArgs("results/mcqa.jsonl", "results/atif"));
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const out = join(dir, "results/atif");
    expect(readdirSync(out).sort()).toEqual(["0-0.json", "1-0.json", "2-0.json", "3-0.json", "4-0.json", "manifest.jsonl"]);
    const manifest = readFileSync(join(out, "manifest.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(manifest[0]).toEqual({ _ng_rollout_index: 0, _ng_task_index: 0, expected_sha256: createHash("sha256").update(readFileSync(join(out, "0-0.json"))).digest("hex"), trajectory_path: "0-0.json" });
    const atif = JSON.parse(readFileSync(join(out, "0-0.json"), "utf8"));
    expect(atif).toMatchObject({ schema_version: "ATIF-v1.7", session_id: "eval-2026-12-01", trajectory_id: "eval-2026-12-01:0:0", agent: { name: "mcqa_simple_agent", version: "1.2.3" } });
    expect(atif.steps.map((s: { source: string }) => s.source)).toEqual(["user", "agent"]);
    expect(atif.steps[1]).toMatchObject({ step_id: 2, llm_call_count: 1, metrics: { prompt_tokens: 141, completion_tokens: 349 } });
    expect(atif.final_metrics).toEqual({ total_prompt_tokens: 141, total_completion_tokens: 349, total_cached_tokens: 0, total_steps: 2 });
    expect(atif.extra.nemo_gym.conversion).toEqual({ profile: "ng-trajectory-to-atif-v1", status: "complete" });
  });

  test("tool calls become one agent step with its observations", async () => {
    expect((await inDir(exportArgs("results/steps.jsonl", "results/atif-steps"))).code).toBe(0);
    const atif = JSON.parse(readFileSync(join(dir, "results/atif-steps/0-0.json"), "utf8"));
    const tools = atif.steps.find((s: { tool_calls?: unknown[] }) => s.tool_calls);
    expect(tools.message).toBe("");
    expect(tools.observation.results.map((r: { source_call_id: string }) => r.source_call_id)).toEqual(tools.tool_calls.map((c: { tool_call_id: string }) => c.tool_call_id));
    expect(typeof tools.tool_calls[0].arguments).toBe("object");
  });

  test("rows it cannot represent are all reported, and nothing is published", async () => {
    const refused = await inDir(exportArgs("results/plain.jsonl", "results/atif-plain"));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("5 problem(s)");
    expect(refused.stderr).toContain("results/plain.jsonl:5: the row has no ng_trajectory");
    expect(existsSync(join(dir, "results/atif-plain"))).toBe(false);
    expect(readdirSync(join(dir, "results")).filter((n) => n.includes("atif-plain"))).toEqual([]);
    mkdirSync(join(dir, "results/taken"));
    const exists = await inDir(exportArgs("results/mcqa.jsonl", "results/taken"));
    expect(exists.code).toBe(1);
    expect(exists.stderr).toContain("already exists");
    const blank = await inDir(["eval", "export", "atif", "+rollouts_jsonl_fpath=results/mcqa.jsonl", "+output_dirpath=results/x", "+session_id=s"]);
    expect(blank.stderr).toContain("needs +agent_version");
  });
});

describe("gym eval reverify --input-format atif", () => {
  const reverify = (manifest: string, out: string, ...extra: string[]) => inDir(["eval", "reverify", "--resources-server", "mcqa", "--input-format", "atif", "--inputs", "results/mcqa_materialized_inputs.jsonl", "--atif-manifest", manifest, "-o", out, ...extra]);
  const rewards = (file: string) => readFileSync(join(dir, file), "utf8").trim().split("\n").map((l) => JSON.parse(l).reward);

  test("an exported directory re-imports to the same rewards, with its provenance", async () => {
    const result = await reverify("results/atif/manifest.jsonl", "results/from_atif.jsonl");
    expect(result.stderr).not.toContain("Error");
    expect(result.code).toBe(0);
    expect(rewards("results/from_atif.jsonl")).toEqual(rewards("results/mcqa.jsonl"));
    const first = JSON.parse(readFileSync(join(dir, "results/from_atif.jsonl"), "utf8").split("\n")[0]!);
    expect(first._ng_atif_provenance).toMatchObject({ schema_version: "ATIF-v1.7", trajectory_id: "eval-2026-12-01:0:0", projection_status: "complete" });
    expect(first._ng_atif_provenance.source_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  test("a changed trajectory, a native-only flag, or --rollouts is refused before anything is verified", async () => {
    const file = join(dir, "results/atif/1-0.json");
    const kept = readFileSync(file, "utf8");
    writeFileSync(file, kept.replace('"version": "1.2.3"', '"version": "9"'));
    const changed = await reverify("results/atif/manifest.jsonl", "results/changed.jsonl");
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain("1-0.json changed: its sha256 is");
    expect(existsSync(join(dir, "results/changed.jsonl"))).toBe(false);
    writeFileSync(file, kept);
    const forced = await reverify("results/atif/manifest.jsonl", "results/forced.jsonl", "--force");
    expect(forced.code).toBe(2);
    expect(forced.stderr).toContain("--force cannot be used with --input-format atif");
    const both = await reverify("results/atif/manifest.jsonl", "results/both.jsonl", "--rollouts", "results/mcqa.jsonl");
    expect(both.stderr).toContain("--rollouts is for native Gym input");
  });
});


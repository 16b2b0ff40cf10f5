import { afterAll, describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The page is generated from web/ by the build; generate it here too, so this file runs on its own.
await import("../../scripts/view-assets.ts");
const { viewApp } = await import("./app.ts");
const { findRuns, parseServedRow } = await import("./runs.ts");

const fixtures = join(import.meta.dir, "..", "..", "fixtures", "view");
const dir = fs.mkdtempSync(join(tmpdir(), "gym-view-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const get = async (app: ReturnType<typeof viewApp>, path: string) => {
  const response = await app.request(`http://localhost${path}`);
  return { status: response.status, body: (response.headers.get("content-type") ?? "").includes("json") ? await response.json() : await response.text(), headers: response.headers };
};

describe("gym view API", () => {
  const { runs } = findRuns([fixtures]);
  const app = viewApp(runs);

  test("finds the fixture runs, not their sidecars; names a rollouts.jsonl by its folder", () => {
    expect(runs.map((r) => r.name.split("/").pop())).toEqual(["baseline", "candidate", "xss", "baseline · failures"]);
    expect(runs.map((r) => r.kind)).toEqual(["rollouts", "rollouts", "rollouts", "failures"]);
  });

  test("runs: counts, key metrics from the aggregate metrics, health verdicts, tokens", async () => {
    const { body } = await get(app, "/api/runs");
    const [baseline] = body.runs;
    expect(baseline.rollouts).toBe(60);
    expect(baseline.key_metrics["mean/reward"]).toBeCloseTo(31 / 60, 12);
    expect(baseline.health).toEqual({ unhealthy: 6, healthy: 54 });
    expect(baseline.model).toBe("model-a");
    expect(baseline.tokens).toBeGreaterThan(0);
    expect([baseline.failures, baseline.related]).toEqual([3, "3"]);
  });

  test("a run's failed attempts: their own entry, filtered by failure class", async () => {
    const all = (await get(app, "/api/runs/3/samples")).body;
    expect(all.failure_classes).toEqual(["agent_request_failed", "timeout_exceeded"]);
    expect(all.fields).toContain("_ng_failure_message");
    const failed = (await get(app, "/api/runs/3/samples?failure=agent_request_failed")).body;
    expect(failed.rows.map((r: { task: number; failure_class: string }) => [r.task, r.failure_class])).toEqual([[3, "agent_request_failed"], [12, "agent_request_failed"]]);
    expect((await get(app, "/api/runs/0/samples?failure=none")).body.matched).toBe(60);
  });

  test("samples: pages, sort, reward range, verdict and text search", async () => {
    const page1 = (await get(app, "/api/runs/0/samples")).body;
    expect([page1.rows.length, page1.matched]).toEqual([50, 60]);
    const page2 = (await get(app, "/api/runs/0/samples?offset=50")).body;
    expect(page2.rows.map((r: { index: number }) => r.index)).toEqual(Array.from({ length: 10 }, (_, i) => 50 + i));
    const rewards = fs.readFileSync(join(fixtures, "baseline", "rollouts.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l).reward as number);
    const passed = (await get(app, "/api/runs/0/samples?min=1&limit=500")).body;
    expect(passed.matched).toBe(rewards.filter((r) => r >= 1).length);
    const sorted = (await get(app, "/api/runs/0/samples?sort=reward&order=desc&limit=500")).body.rows.map((r: { reward: number }) => r.reward);
    expect(sorted).toEqual([...rewards].sort((a, b) => b - a));
    expect((await get(app, "/api/runs/0/samples?verdict=unhealthy")).body.matched).toBe(6);
    const search = (await get(app, "/api/runs/0/samples?q=question%207:")).body;
    expect(search.rows.map((r: { task: number }) => r.task)).toEqual([7, 7, 7]);
    expect(page1.fields).toContain("extracted_answer");
  });

  test("one sample: the row by range, raw text beside it", async () => {
    const { body } = await get(app, "/api/runs/1/samples/4");
    const line = fs.readFileSync(join(fixtures, "candidate", "rollouts.jsonl"), "utf8").split("\n")[4]!;
    expect(body.raw).toBe(line);
    expect(body.row).toEqual(JSON.parse(line));
    expect((await get(app, "/api/runs/1/samples/60")).status).toBe(404);
  });

  test("compare: eval compare's paired interval and flips; per-task means", async () => {
    const { body } = await get(app, "/api/compare?a=0&b=1");
    const { compareRuns } = await import("../stages/compare/index.ts");
    const { loadRun } = await import("../stages/compare/load.ts");
    const report = compareRuns({ baseline: [loadRun(join(fixtures, "baseline", "rollouts.jsonl"))], candidate: [loadRun(join(fixtures, "candidate", "rollouts.jsonl"))] });
    const metric = report.comparisons[0]!.metrics.find((m) => m.metric === "mean/reward")!.candidates[0]!;
    expect(body.report.paired_delta).toBe(metric.paired_delta);
    expect(body.report.paired_ci_low).toBe(metric.paired_ci_low);
    expect(body.report.pass_to_fail).toBe(report.comparisons[0]!.flips[0]!.pass_to_fail_count);
    expect(body.tasks.length).toBe(20);
    expect(body.paired_rollouts.n).toBe(60);
  });

  test("a strict Content-Security-Policy on every response", async () => {
    for (const path of ["/", "/assets/app.js", "/api/runs"]) {
      const { headers, status } = await get(app, path);
      expect(status).toBe(200);
      expect(headers.get("content-security-policy")).toContain("script-src 'self'");
      expect(headers.get("content-security-policy")).toContain("default-src 'none'");
    }
  });

  test("paths in requests reach nothing: runs are ids, assets are names", async () => {
    for (const path of ["/api/runs/..%2F..%2Fetc%2Fpasswd/samples/0", "/api/runs/../../etc/passwd", "/assets/..%2F..%2Fpackage.json", "/assets/__proto__", "/assets/constructor", "/api/runs/constructor/samples", "/etc/passwd", "/api/compare?a=../x&b=1"]) {
      const { status, body } = await get(app, path);
      expect([path, status]).toEqual([path, 404]);
      expect(JSON.stringify(body)).not.toContain("root:");
    }
  });

  test("a file that links outside the given folder is skipped, a linked folder not searched", () => {
    const outside = join(dir, "outside");
    const inside = join(dir, "results");
    fs.mkdirSync(join(outside, "secret"), { recursive: true });
    fs.mkdirSync(join(inside, "run"), { recursive: true });
    fs.writeFileSync(join(outside, "secret.jsonl"), '{"reward":1}\n');
    fs.writeFileSync(join(outside, "secret", "rollouts.jsonl"), '{"reward":1}\n');
    fs.copyFileSync(join(fixtures, "xss", "rollouts.jsonl"), join(inside, "run", "rollouts.jsonl"));
    fs.symlinkSync(join(outside, "secret.jsonl"), join(inside, "link.jsonl"));
    fs.symlinkSync(join(outside, "secret"), join(inside, "linked-dir"));
    const warnings: string[] = [];
    const found = findRuns([inside], { warn: (w) => warnings.push(w) });
    expect(found.runs.map((r) => r.file)).toEqual([join(inside, "run", "rollouts.jsonl")]);
    expect(warnings.join("\n")).toContain("links outside");
  });

  test("a rewritten file is read again; verdicts written after the rows show up", async () => {
    const folder = join(dir, "rewritten");
    fs.mkdirSync(folder);
    const file = join(folder, "rollouts.jsonl");
    fs.writeFileSync(file, '{"_ng_task_index":0,"_ng_rollout_index":0,"reward":0}\n{"_ng_task_index":1,"_ng_rollout_index":0,"reward":0}\n');
    const app2 = viewApp(findRuns([file]).runs);
    expect((await get(app2, "/api/runs/0/samples")).body.rows.map((r: { reward: number }) => r.reward)).toEqual([0, 0]);
    fs.writeFileSync(file, '{"_ng_task_index":0,"_ng_rollout_index":0,"reward":1}\n{"_ng_task_index":1,"_ng_rollout_index":0,"reward":0.5}\n{"_ng_task_index":2,"_ng_rollout_index":0,"reward":1}\n');
    expect((await get(app2, "/api/runs/0/samples")).body.rows.map((r: { reward: number }) => r.reward)).toEqual([1, 0.5, 1]);
    fs.writeFileSync(join(folder, "rollout_verdicts.jsonl"), '{"_ng_task_index":1,"_ng_rollout_index":0,"rollout_id":"1:0","verdict":"unhealthy","findings":[]}\n');
    expect((await get(app2, "/api/runs/0/samples?verdict=unhealthy")).body.rows.map((r: { task: number }) => r.task)).toEqual([1]);
  });

  test("tokens and cost: a row's own usage first, else the model response's", async () => {
    const { usageOf } = await import("./columns.ts");
    expect(usageOf({ usage: { input_tokens: 3, output_tokens: 4, cost: 0.25 }, response: { usage: { input_tokens: 9, output_tokens: 9, total_tokens: 18 } } })).toEqual({ input: 3, output: 4, total: 7, cost: 0.25 });
    expect(usageOf({ response: { usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 } } })).toEqual({ input: 1, output: 2, total: 3, cost: NaN });
  });

  test("a missing path is an error naming it", () => {
    expect(() => findRuns([join(dir, "nope")])).toThrow(/nope does not exist/);
  });

  test("a run still being written: the index and the table grow", async () => {
    const file = join(dir, "live", "rollouts.jsonl");
    fs.mkdirSync(join(dir, "live"));
    const lines = fs.readFileSync(join(fixtures, "baseline", "rollouts.jsonl"), "utf8").split("\n");
    fs.writeFileSync(file, `${lines.slice(0, 10).join("\n")}\n${lines[10]!.slice(0, 40)}`);
    const live = viewApp(findRuns([file]).runs);
    expect((await get(live, "/api/runs")).body.runs[0].rollouts).toBe(11);
    expect((await get(live, "/api/runs/0/samples")).body.matched).toBe(10);
    fs.appendFileSync(file, `${lines[10]!.slice(40)}\n${lines.slice(11, 20).join("\n")}\n`);
    const after = (await get(live, "/api/runs")).body.runs[0];
    expect(after.rollouts).toBe(20);
    expect(after.live).toBe(true);
    expect((await get(live, "/api/runs/0/samples?limit=100")).body.rows.map((r: { task: number }) => r.task)).toEqual(lines.slice(0, 20).map((l) => JSON.parse(l)._ng_task_index));
  });
});

describe("rows with Python's NaN / Infinity", () => {
  test("are read as the row reader reads them, not shown as blank rows", () => {
    const row = parseServedRow('{"_ng_task_index":3,"_ng_rollout_index":1,"reward":NaN,"score":-Infinity}');
    expect(row?._ng_task_index).toBe(3);
    expect(row?._ng_rollout_index).toBe(1);
    expect(Number.isNaN(row?.reward)).toBe(true);
    expect(row?.score).toBe(-Infinity);
    expect(parseServedRow("not json")).toBeUndefined();
  });
});

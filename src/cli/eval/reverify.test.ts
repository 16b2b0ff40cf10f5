import { afterAll, describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { replicateCase, reverifyCases, writeCase } from "../../stages/reverify/fixtures.ts";

const REPO = path.join(import.meta.dir, "../../..");
const FIX = "fixtures/reverify";
const root = fs.mkdtempSync(path.join(os.tmpdir(), "gym-reverify-cli-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => fs.mkdtempSync(path.join(root, `c${n++}-`));
const readRows = (file: string): Record<string, any>[] => fs.readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const rewards = (file: string) => new Map(readRows(file).map((r) => [`${r._ng_task_index}-${r._ng_rollout_index}`, r.reward]));

function spawnGym(args: string[], stdin?: string) {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  delete env.NEMO_GYM_EXTRA_ROOTS;
  return Bun.spawn([process.execPath, "src/main.ts", "eval", "reverify", ...args], {
    cwd: REPO,
    env,
    stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
}

async function gym(args: string[], stdin?: string) {
  const proc = spawnGym(args, stdin);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

describe("gym eval reverify: every built-in verifier's published rollouts", () => {
  for (const c of reverifyCases()) {
    test(`${c.name}: --resources-server ${c.selector}${c.stateless ? "" : " --force"}`, async () => {
      const dir = freshDir();
      const files = writeCase(c, dir);
      const output = path.join(dir, "reverified.jsonl");
      const { code, stderr } = await gym(["--resources-server", c.selector, "--inputs", files.inputs, "--rollouts", files.rollouts, "-o", output, ...(c.stateless ? [] : ["--force"])]);
      if (c.name === "example_multi_turn_gymnasium") {
        // A Gymnasium server has /reset and /step, no /verify and no /reverify_mode: nothing can be replayed.
        expect(code).toBe(1);
        expect(stderr).toContain("'example_multi_turn_gymnasium' (unknown; GET /reverify_mode answered 404)");
        expect(stderr).toContain("Error: Re-verification stopped: /verify failed for rollout");
        return;
      }
      expect(stderr).not.toContain("Error");
      expect(code).toBe(0);
      const got = rewards(c.stateless ? output : path.join(dir, "unsafe_reverified.jsonl"));
      expect(got.size).toBe(c.stored.length);
      for (const { key, reward } of c.stored) {
        let expected = reward;
        // Stale row (verifiers.md §2): `\boxed{C: An individual …}` stored 0.0; NeMo Gym HEAD reads C → 1.0.
        if (c.name === "mcqa" && key === "1-0") expected = 1;
        // Session state is seeded by /seed_session and tool calls during the run; replaying /verify alone finds
        // no counter — exactly why this server is not `stateless` (the verifier test replays the session instead).
        if (c.name === "example_session_state_mgmt") expected = 0;
        expect([key, got.get(key)]).toEqual([key, expected]);
      }
      expect(fs.existsSync(path.join(dir, `${c.stateless ? "" : "unsafe_"}reverified_aggregate_metrics.json`))).toBe(true);
    });
  }
});

describe("gym eval reverify: safety and files", () => {
  const mcqa = reverifyCases().find((c) => c.name === "mcqa")!;
  const stringMatch = reverifyCases().find((c) => c.name === "string_match")!;

  test("the guard refuses an unknown-mode server (exit 1, nothing written); --force writes unsafe_ files", async () => {
    const dir = freshDir();
    const files = writeCase(stringMatch, dir);
    const args = ["--resources-server", "string_match", "--inputs", files.inputs, "--rollouts", files.rollouts, "-o", path.join(dir, "out.jsonl")];
    const refused = await gym(args);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Error: Reverification is not known to be safe for resources server(s) 'string_match' (unknown)");
    expect(refused.stderr).toContain("Pass --force to run anyway");
    expect(fs.readdirSync(dir).sort()).toEqual(["rollouts.jsonl", "rollouts_materialized_inputs.jsonl"]);
    const forced = await gym([...args, "--force"]);
    expect(forced.code).toBe(0);
    expect(fs.readdirSync(dir).sort()).toEqual(["rollouts.jsonl", "rollouts_materialized_inputs.jsonl", "unsafe_out.jsonl", "unsafe_out_aggregate_metrics.json"]);
    expect(forced.stderr).toContain(`Re-verified rollouts: ${path.join(dir, "unsafe_out.jsonl")}`);
  });

  test("an existing output is refused without --overwrite", async () => {
    const dir = freshDir();
    const files = writeCase(mcqa, dir);
    const args = ["--resources-server", "mcqa", "--inputs", files.inputs, "--rollouts", files.rollouts, "-o", path.join(dir, "out.jsonl")];
    expect((await gym(args)).code).toBe(0);
    const again = await gym(args);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Error: Output file already exists: ${path.join(dir, "out.jsonl")}`);
    expect(again.stderr).toContain("Pass --overwrite to delete it and start fresh, or --resume to continue from it.");
    expect((await gym([...args, "--overwrite"])).code).toBe(0);
    expect(readRows(path.join(dir, "out.jsonl"))).toHaveLength(5);
  });

  test("killed mid-run (SIGKILL), --resume finishes with every rollout exactly once", async () => {
    const dir = freshDir();
    const big = replicateCase(mcqa, 800); // 4,000 rollouts
    fs.writeFileSync(path.join(dir, "in.jsonl"), big.inputsText);
    fs.writeFileSync(path.join(dir, "ro.jsonl"), big.rolloutsText);
    const output = path.join(dir, "out.jsonl");
    const args = ["--resources-server", "mcqa", "--inputs", path.join(dir, "in.jsonl"), "--rollouts", path.join(dir, "ro.jsonl"), "-o", output, "--concurrency", "1"];
    const proc = spawnGym(args);
    for (let i = 0; i < 2000 && !(fs.existsSync(output) && fs.statSync(output).size > 50_000); i++) await Bun.sleep(5);
    proc.kill(9);
    await proc.exited;
    const resumed = await gym([...args, "--resume"]);
    expect(resumed.stderr).not.toContain("Error");
    expect(resumed.code).toBe(0);
    const rows = readRows(output);
    const keys = rows.map((r) => `${r._ng_task_index}-${r._ng_rollout_index}`);
    expect(new Set(keys).size).toBe(4000);
    expect(keys).toHaveLength(4000);
    // Every copy scores like the original task (the stale task 1 now reads C → 1.0).
    const stored = new Map(mcqa.stored.map((s) => [Number(s.key.split("-")[0]), s.key === "1-0" ? 1 : s.reward]));
    for (const r of rows) expect(r.reward).toBe(stored.get(r._ng_task_index % 5)!);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "out_aggregate_metrics.json"), "utf8"))[0].key_metrics["mean/reward"]).toBe(0.8);
  });

  test("--judge-failed-only --append completes the run's own rollouts.jsonl in place (no guard, no prefix)", async () => {
    const dir = freshDir();
    const files = writeCase(mcqa, dir);
    const lines = fs.readFileSync(files.rollouts, "utf8").split("\n").filter(Boolean);
    fs.writeFileSync(files.rollouts, `${lines.slice(0, 3).join("\n")}\n`);
    const judgeFailed = lines.slice(3).map((l) => ({ ...JSON.parse(l), reward: 0, _ng_failure_class: "judge_failed" }));
    fs.writeFileSync(path.join(dir, "rollouts_failures.jsonl"), [...judgeFailed, judgeFailed[0]].map((r) => `${JSON.stringify(r)}\n`).join(""));
    // mcqa.yaml's agent block routes the rows; recovery skips the reverify-mode guard (so no --force, no unsafe_).
    const args = ["--judge-failed-only", "--append", "--resources-server", "mcqa", "--inputs", files.inputs, "--rollouts", files.rollouts, "-o", files.rollouts];
    const first = await gym(args);
    expect(first.stderr).toContain("Warning: --judge-failed-only merges rewards from two sources");
    expect(first.code).toBe(0);
    const rows = readRows(files.rollouts);
    expect(rows.map((r) => r._ng_task_index)).toEqual([2, 4, 1, 3, 0]);
    expect(rows.slice(3).map((r) => r.reward)).toEqual([1, 1]);
    expect(fs.existsSync(path.join(dir, "unsafe_rollouts.jsonl"))).toBe(false);
    const metrics = path.join(dir, "rollouts_aggregate_metrics.json");
    expect(fs.statSync(metrics).mtimeMs).toBeGreaterThanOrEqual(fs.statSync(files.rollouts).mtimeMs);
    const again = await gym(args);
    expect(again.stderr).toContain("Re-verified 0 rollout(s)");
    expect(readRows(files.rollouts)).toHaveLength(5);
  });
});

describe("gym eval reverify: inputs, outputs and errors", () => {
  const broken = (file: string) => ["--config", `${FIX}/mcqa_resources_only.yaml`, "--inputs", `${FIX}/broken/inputs.jsonl`, "--rollouts", `${FIX}/broken/${file}`];

  test("unjoinable and duplicated rollouts are reported with file:line, exit 1, nothing written", async () => {
    const output = path.join(freshDir(), "out.jsonl");
    const { code, stderr } = await gym([...broken("rollouts_unjoinable.jsonl"), "-o", output]);
    expect(code).toBe(1);
    expect(stderr).toContain(`Error: 2 row(s) of ${FIX}/broken/rollouts_unjoinable.jsonl cannot be re-verified:`);
    expect(stderr).toContain(`${FIX}/broken/rollouts_unjoinable.jsonl:2: rollout (_ng_task_index 7, _ng_rollout_index 0) has no row in ${FIX}/broken/inputs.jsonl`);
    expect(stderr).toContain(`${FIX}/broken/rollouts_unjoinable.jsonl:4: rollout (_ng_task_index 0, _ng_rollout_index 0) already appeared on line 1`);
    expect(fs.existsSync(output)).toBe(false);
  });

  test("a malformed line is reported with file:line:column", async () => {
    const { code, stderr } = await gym([...broken("rollouts_malformed.jsonl"), "-o", path.join(freshDir(), "out.jsonl")]);
    expect(code).toBe(1);
    expect(stderr).toContain(`Error: ${FIX}/broken/rollouts_malformed.jsonl:2:67: invalid JSON`);
  });

  test("rollouts from stdin, rows to stdout; a resources-only config routes everything to its server and ++ overrides apply", async () => {
    const rolloutsText = fs.readFileSync(path.join(REPO, FIX, "broken/rollouts.jsonl"), "utf8");
    const args = ["--config", `${FIX}/mcqa_resources_only.yaml`, "--inputs", `${FIX}/broken/inputs.jsonl`, "--rollouts", "-", "-o", "-", "--disable-aggregation"];
    const lenient = await gym(args, rolloutsText);
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toContain("Warning: The config has no agent blocks: every row goes to the only resources server 'mcqa'");
    expect(lenient.stderr).toContain("Re-verified rollouts: <stdout>");
    const rows = lenient.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    expect(rows.map((r) => [r._ng_task_index, r.reward, r.extracted_answer])).toEqual([[0, 1, "A"], [1, 1, "A"], [2, 1, "A"]]);
    const colon = await gym([...args, "++mcqa.resources_servers.mcqa.grading_mode=lenient_answer_colon"], rolloutsText);
    expect(colon.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l).reward)).toEqual([0, 0, 0]);
  });

  test("a resources server given by url is reached over HTTP (any NeMo Gym server can stand in)", async () => {
    const { serve } = await import("../../runtime/serve.ts");
    const { default: createMcqa } = await import("../../components/resources_servers/mcqa/index.ts");
    const app = createMcqa({});
    const paths: string[] = [];
    const served = await serve((request) => {
      paths.push(new URL(request.url).pathname);
      return app.fetch(request);
    });
    try {
      const dir = freshDir();
      const config = path.join(dir, "remote.yaml");
      fs.writeFileSync(config, `remote_mcqa:\n  resources_servers:\n    mcqa:\n      entrypoint: app.py\n      domain: knowledge\n      url: ${served.url}\n`);
      const { code, stderr } = await gym(["--config", config, "--inputs", `${FIX}/broken/inputs.jsonl`, "--rollouts", `${FIX}/broken/rollouts.jsonl`, "-o", path.join(dir, "o.jsonl")]);
      expect(stderr).toContain("Re-verified 3 rollout(s): 3 scored");
      expect(code).toBe(0);
      expect(paths).toEqual(["/reverify_mode", "/verify", "/verify", "/verify", "/aggregate_metrics"]);
    } finally {
      await served.stop();
    }
  });

  test("--no-serve reverifies against servers started by `gym env start` (found through the head server)", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
      const p = probe.port;
      probe.stop(true);
      resolve(p);
    });
    const head = `+head_server.port=${port}`;
    const env = { ...process.env, NO_COLOR: "1" };
    const servers = Bun.spawn([process.execPath, "src/main.ts", "env", "start", "--config", `${FIX}/mcqa_resources_only.yaml`, "--json", head], { cwd: REPO, env, stdout: "pipe", stderr: "pipe" });
    try {
      const reader = servers.stdout.getReader();
      let out = "";
      while (!out.includes("\n")) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`env start ended: ${await new Response(servers.stderr).text()}`);
        out += new TextDecoder().decode(value);
      }
      const dir = freshDir();
      const r = await gym(["--no-serve", head, "--inputs", `${FIX}/broken/inputs.jsonl`, "--rollouts", `${FIX}/broken/rollouts.jsonl`, "-o", path.join(dir, "o.jsonl"), "--json"]);
      expect(r.code).toBe(0);
      // The running mcqa was started with grading_mode lenient_boxed; the rows answer \boxed{A}, expected A.
      expect(JSON.parse(r.stdout)).toMatchObject({ verified: 3, succeeded: 3, reverifyModes: { mcqa: "stateless" } });
      expect(readRows(path.join(dir, "o.jsonl")).map((row) => row.reward)).toEqual([1, 1, 1]);
    } finally {
      servers.kill("SIGTERM");
      await servers.exited;
    }
  }, 60_000);

  test("--json prints the report; missing flags and bad values are usage errors", async () => {
    const dir = freshDir();
    const ok = await gym([...broken("rollouts.jsonl"), "-o", path.join(dir, "o.jsonl"), "--json"]);
    expect(JSON.parse(ok.stdout)).toMatchObject({ verified: 3, succeeded: 3, reverifyModes: { mcqa: "stateless" }, aggregateMetrics: path.join(dir, "o_aggregate_metrics.json") });
    const missing = await gym(["--config", `${FIX}/mcqa_resources_only.yaml`, "--inputs", "x.jsonl"]);
    expect([missing.code, missing.stderr.split("\n")[0]]).toEqual([2, "Error: gym eval reverify needs --rollouts."]);
    const appendOnly = await gym([...broken("rollouts.jsonl"), "-o", path.join(dir, "p.jsonl"), "--append"]);
    expect([appendOnly.code, appendOnly.stderr.split("\n")[0]]).toEqual([2, "Error: --append is only valid together with --judge-failed-only."]);
    const atif = await gym([...broken("rollouts.jsonl"), "-o", path.join(dir, "q.jsonl"), "--input-format", "atif"]);
    expect(atif.code).toBe(2);
  });
});

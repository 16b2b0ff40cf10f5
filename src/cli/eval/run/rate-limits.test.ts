// End to end on the compiled binary: `gym eval run` against provider-shaped mocks on 127.0.0.1 — a 24-in-flight
// limit, a limit that changes mid-run, a request window with x-ratelimit-* headers — and the retry bounds.
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import { ensureBinary, gym } from "../../../testing/binary.ts";
import { writeMcqaDataset } from "../../../testing/datasets.ts";
import { rateLimitedEndpoint, type RateLimitedEndpointOptions } from "../../../testing/rate-limited-endpoint.ts";

let dir: string;
let served: ServedApp | undefined;
const lines = (path: string) => readFileSync(join(dir, path), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const status = (out: string) => JSON.parse(readFileSync(join(dir, out, "rollouts_batch_status.json"), "utf8"));

beforeAll(async () => {
  await ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "gym-rate-limits-"));
  for (const n of [5, 400, 1200, 1500]) writeMcqaDataset(join(dir, `tasks-${n}.jsonl`), n);
}, 120_000);

afterEach(async () => {
  await served?.stop();
  served = undefined;
});

async function provider(options: RateLimitedEndpointOptions) {
  const endpoint = rateLimitedEndpoint(options);
  served = await serve(endpoint.fetch);
  return endpoint;
}

/** The mocks are on loopback, where adaptive concurrency is off by default: these runs ask for it unless they say --no-adaptive. */
function run(tasks: number, out: string, extra: string[] = []) {
  const adaptive = extra.includes("--no-adaptive") ? [] : ["+adaptive_concurrency=true"];
  return gym(["eval", "run", "--resources-server", "mcqa", "--model-type", "openai_model", "--model", "m", "--model-url", `${served!.url}/v1`, "--model-api-key", "sk-test",
    "--input", `tasks-${tasks}.jsonl`, "--concurrency", "256", "-o", `${out}/rollouts.jsonl`, ...extra, ...adaptive], { cwd: dir });
}

/** Every (task, rollout) of the run exactly once in its rollouts file. */
function expectEachOnce(out: string, tasks: number) {
  const ids = lines(`${out}/rollouts.jsonl`).map((r) => `${r._ng_task_index}-${r._ng_rollout_index}`);
  expect(ids).toHaveLength(tasks);
  expect(new Set(ids).size).toBe(tasks);
}

describe("gym eval run against rate-limited providers (compiled binary)", () => {
  test("24 calls in flight allowed, --concurrency 256: every rollout saved once, 429s ≤ 5% of successful calls", async () => {
    const endpoint = await provider({ maxInFlight: 24, latencyMs: 20, retryAfterS: 1 });
    const r = await run(1200, "limit24");
    expect(r.code).toBe(0);
    expectEachOnce("limit24", 1200);
    expect(endpoint.stats.served).toBe(1200);
    expect([...endpoint.stats.servedPerQuestion.values()].every((n) => n === 1)).toBe(true);
    expect(endpoint.stats.rateLimited).toBeLessThanOrEqual(0.05 * endpoint.stats.served);
    expect(endpoint.stats.maxInFlight).toBe(24);
    const calls = status("limit24").model_calls;
    expect(calls).toMatchObject({ calls: 1200, succeeded: 1200, rate_limited: endpoint.stats.rateLimited, gave_up: 0 });
    expect(calls.endpoints).toHaveLength(1);
    expect(calls.endpoints[0].endpoint).toBe(`${served!.url}/v1`);
    expect(calls.endpoints[0].limit_changes.some((c: { reason: string }) => c.reason.startsWith("429 (retry after 1000 ms)"))).toBe(true);
    expect(r.stderr).toMatch(/Model calls: 1200 \(1200 answered, 0 gave up\), \d+ 429s \(\d+\.\d% of successful calls\)/);
    expect(r.stderr).toMatch(/effective concurrency [\d.]+, adaptive limit now \d+ of 256; rate-limit time lost/);
    expect(r.stderr).toMatch(/rollouts \(100\.0%\) .* · limit \d+ · 0 calls in flight · \d+ 429s · \d+ retries/);
  }, 120_000);

  test("a limit that changes mid-run (24 → 8 → 32): the controller follows it down and up", async () => {
    const endpoint = await provider({ maxInFlight: 24, latencyMs: 20, retryAfterS: 0.5 });
    let phase = 0;
    const watch = setInterval(() => {
      if (phase === 0 && endpoint.stats.served >= 400) (phase = 1), endpoint.setMaxInFlight(8);
      else if (phase === 1 && endpoint.stats.served >= 800) (phase = 2), endpoint.setMaxInFlight(32), (endpoint.stats.maxInFlight = 0);
    }, 5);
    const r = await run(1500, "changing");
    clearInterval(watch);
    expect(r.code).toBe(0);
    expect(phase).toBe(2);
    expectEachOnce("changing", 1500);
    const changes: { from: number; to: number; reason: string }[] = status("changing").model_calls.endpoints[0].limit_changes;
    const lowest = changes.findIndex((c) => c.to <= 8);
    expect(lowest).toBeGreaterThan(0);
    expect(changes.slice(lowest).some((c) => c.to > 24)).toBe(true);
    expect(endpoint.stats.maxInFlight).toBeGreaterThan(24);
  }, 120_000);

  test("x-ratelimit-remaining-requests: calls wait for the provider's window; every rollout saved once", async () => {
    const endpoint = await provider({ requestsPerWindow: 50, windowMs: 250, latencyMs: 5, retryAfterS: 0.25 });
    const r = await run(400, "window");
    expect(r.code).toBe(0);
    expectEachOnce("window", 400);
    const changes: { reason: string }[] = status("window").model_calls.endpoints[0].limit_changes;
    expect(changes.some((c) => /^x-ratelimit-remaining-requests spent: paused \d+ ms$/.test(c.reason))).toBe(true);
    // How many 429s a window-following client still meets depends on the machine's load (a late answer reads an
    // older window), so the bound is relative: far fewer than the same run that ignores the headers.
    const adaptive429s = endpoint.stats.rateLimited;
    await served?.stop();
    const baseline = await provider({ requestsPerWindow: 50, windowMs: 250, latencyMs: 5, retryAfterS: 0.25 });
    const fixed = await run(400, "window-fixed", ["--no-adaptive", "+max_model_retries=40"]);
    expect(fixed.code).toBe(0);
    expect(adaptive429s).toBeLessThan(baseline.stats.rateLimited / 2);
  }, 120_000);

  test("a permanent 4xx is not retried: one call per rollout, each a failed rollout", async () => {
    const endpoint = await provider({ alwaysStatus: 400 });
    const r = await run(5, "permanent", ["+route_failures_to_sidecar=true"]);
    expect(endpoint.stats.refused).toBe(5);
    const failures = lines("permanent/rollouts_failures.jsonl");
    expect(failures).toHaveLength(5);
    expect(failures.every((f) => !String(f._ng_failure_message).includes("gave up"))).toBe(true);
    expect(r.stderr).toContain("Model calls: 5 (0 answered, 0 gave up), 0 429s, 0 retries.");
  }, 60_000);

  test("a spent retry budget (+max_model_retries=2) fails the rollout with a row that says so; --resume replays it", async () => {
    const endpoint = await provider({ alwaysStatus: 429, retryAfterS: 0 });
    const r = await run(5, "budget", ["+max_model_retries=2", "+route_failures_to_sidecar=true"]);
    expect(r.code).not.toBe(0);
    expect(endpoint.stats.refused).toBe(15);
    const failures = lines("budget/rollouts_failures.jsonl");
    expect(failures).toHaveLength(5);
    for (const f of failures) {
      expect(f._ng_failure_class).toBe("agent_run_error");
      expect(f._ng_failure_message).toMatch(/^\/run answered 500: gave up after 2 retries and [\d.]+ s of waiting \(max_model_retries=2 spent; raise \+max_model_retries/);
    }
    const again = await run(5, "budget", ["+max_model_retries=0", "+route_failures_to_sidecar=true", "--resume"]);
    expect(again.code).not.toBe(0);
    expect(endpoint.stats.refused).toBe(20); // each failed rollout sent once more, nothing else
  }, 60_000);

  test("--no-adaptive keeps a fixed concurrency (no limiter); a bad +max_model_retries is a clear error", async () => {
    const endpoint = await provider({ maxInFlight: 24, latencyMs: 20, retryAfterS: 0.05 });
    const r = await run(400, "fixed", ["--no-adaptive", "+max_model_retries=40"]);
    expect(r.code).toBe(0);
    expectEachOnce("fixed", 400);
    expect(status("fixed").model_calls.endpoints).toEqual([]);
    expect(r.stderr).toContain(", fixed concurrency; rate-limit time lost");
    expect(endpoint.stats.rateLimited).toBeGreaterThan(0.05 * 400);
    const bad = await run(5, "bad", ["+max_model_retries=-1"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("max_model_retries must be a whole number ≥ 0, got -1.");
  }, 120_000);
});

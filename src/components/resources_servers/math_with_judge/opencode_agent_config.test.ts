// math_with_judge_opencode_agent.yaml (NeMo Gym's config; gym adds model_server and pins its OpenCode): the real
// OpenCode CLI answers the example rows in a fresh local sandbox against mock_model, math_with_judge scores each.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectSandbox } from "../../../sandbox/index.ts";
import { gym } from "../../../testing/binary.ts";

const hasBwrap = (await detectSandbox()).kind === "bwrap";
if (!hasBwrap) console.warn("skip: math_with_judge_opencode_agent run because bubblewrap is not available (apt-get install bubblewrap)");

describe("math_with_judge/math_with_judge_opencode_agent", () => {
  test.skipIf(!hasBwrap)("gym eval run --resources-server math_with_judge/math_with_judge_opencode_agent against mock_model: 5 of 5 rows run by OpenCode and scored", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "gym-mwj-opencode-"));
    try {
      // NeMo Gym's file interpolates the policy endpoint into its own provider block, as its env.yaml would set it.
      const r = await gym(["eval", "run", "--resources-server", "math_with_judge/math_with_judge_opencode_agent", "--model-type", "mock_model", "++policy_base_url=http://127.0.0.1:9/v1", "++policy_api_key=unused", "-o", "out.jsonl"], { cwd });
      expect(r.stderr).toContain("Coverage: 5 of 5 rollouts scored (5 succeeded)");
      expect(r.code).toBe(0);
      const rows = readFileSync(join(cwd, "out.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
      for (const row of rows) {
        expect(row.agent_ref.name).toBe("math_with_judge_opencode_agent");
        expect(row.finished_naturally).toBe(true);
        expect(typeof row.library_reward).toBe("number");
      }
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 240_000);
});

import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym, repoRoot } from "../../../testing/binary.ts";

const configs = join(repoRoot, "fixtures", "config", "nemo-gym");

test("every NeMo Gym config of the reference data runs `gym eval run` unchanged, on our built-ins", async () => {
  const dir = mkdtempSync(join(tmpdir(), "gym-nemo-configs-"));
  const results: Record<string, string> = {};
  for (const file of readdirSync(configs).filter((f) => f.endsWith(".yaml")).sort()) {
    const out = join(dir, file.replace(/\.yaml$/, ""), "r.jsonl");
    const r = await gym(["eval", "run", "--config", join(configs, file), "--model-type", "mock_model", "-o", out], { cwd: dir });
    results[file] = r.code === 0 ? `${readFileSync(out, "utf8").trimEnd().split("\n").length} rollouts` : r.stderr.split("\n")[0]!;
  }
  expect(results).toEqual({
    "circle_click.yaml": "5 rollouts",
    "citation_format.yaml": "5 rollouts",
    "example_multi_step.yaml": "5 rollouts",
    "example_multi_turn_gymnasium.yaml": "5 rollouts",
    "example_session_state_mgmt.yaml": "5 rollouts",
    "example_single_tool_call.yaml": "5 rollouts",
    "example_tool_call_multireward.yaml": "5 rollouts",
    // Its example dataset is not among NeMo Gym's published files, so it is not shipped: the error says so.
    "freeform_formatting.yaml": "Error: Input dataset not found: resources_servers/format_verification/data/ds2_freeform_formatting_example.jsonl",
    "lc.yaml": "5 rollouts",
    "mcqa.yaml": "5 rollouts",
    "string_match.yaml": "5 rollouts",
  });
}, 120_000);

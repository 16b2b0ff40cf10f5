import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../../../testing/binary.ts";

const scripted = join(import.meta.dir, "_fixtures", "scripted_rollouts.jsonl");
const promptOf = (row: any) => row.responses_create_params.input.at(-1).content as string;

describe("workplace_assistant on the compiled binary: env validate, eval run with a scripted model, reverify refused", () => {
  test("`gym env validate --environment workplace_assistant` passes", async () => {
    const r = await gym(["env", "validate", "--environment", "workplace_assistant"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("workplace_assistant (resources_servers/workplace_assistant)");
  }, 120_000);

  test("`gym eval run` drives simple_agent's tool calls into per-session workplaces; rewards follow the final states; reverify refuses", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "gym-workplace-"));
    const model = `+policy_model.responses_api_models.replay_model.rollouts_jsonl_fpath=${scripted}`;
    const run = await gym(["eval", "run", "--environment", "workplace_assistant", "--model-type", "replay_model", model, "-o", "r.jsonl"], { cwd });
    expect(run.code).toBe(0);
    const rows = readFileSync(join(cwd, "r.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const expected = new Map(
      readFileSync(scripted, "utf8").trim().split("\n").map((l) => {
        const row = JSON.parse(l);
        return [promptOf(row), (row._scripted as string).endsWith(": 1") ? 1 : 0];
      }),
    );
    expect(rows.map((r) => [promptOf(r), r.reward]).sort()).toEqual([...expected].sort());
    // The tool outputs are the server's, not the script's placeholders.
    const outputs = rows.flatMap((r) => r.response.output.filter((o: any) => o.type === "function_call_output").map((o: any) => JSON.parse(o.output)));
    expect(outputs).toContainEqual({ output: "Customer deleted successfully." });
    expect(outputs.every((o) => "output" in o)).toBe(true);

    const reverify = await gym(["eval", "reverify", "--environment", "workplace_assistant", "--inputs", "r_materialized_inputs.jsonl", "--rollouts", "r.jsonl", "--output", "rv.jsonl"], { cwd });
    expect(reverify.code).toBe(1);
    expect(reverify.stderr).toContain("'workplace_assistant' (unsupported)");
  }, 120_000);
});

import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GymError } from "../errors.ts";
import type { Root } from "./roots.ts";
import { selectorPath } from "./selectors.ts";

const ROOT = join(import.meta.dirname, "../../fixtures/config/root");
const roots: Root[] = [{ kind: "dir", path: ROOT }];

async function usageError(promise: Promise<unknown>): Promise<GymError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GymError) return error;
    throw error;
  }
  throw new Error("expected a usage error");
}

describe("selectorPath (spec §3.3)", () => {
  test("NAME and NAME/FLAVOR map to the layout paths", async () => {
    expect(await selectorPath("resources-server", "mcqa", roots)).toBe(join(ROOT, "resources_servers/mcqa/configs/mcqa.yaml"));
    expect(await selectorPath("model-type", "openai_model", roots)).toBe(join(ROOT, "responses_api_models/openai_model/configs/openai_model.yaml"));
    expect(await selectorPath("model-type", "openai_model/openai_model_fast", roots)).toBe(join(ROOT, "responses_api_models/openai_model/configs/openai_model_fast.yaml"));
    expect(await selectorPath("agent-type", "simple_agent", roots)).toBe(join(ROOT, "responses_api_agents/simple_agent/configs/simple_agent.yaml"));
    expect(await selectorPath("benchmark", "aime24", roots)).toBe(join(ROOT, "benchmarks/aime24/config.yaml"));
    expect(await selectorPath("benchmark", "livecodebench/v5", roots)).toBe(join(ROOT, "benchmarks/livecodebench/v5/config.yaml"));
  });

  test("the highest-priority root wins and the shadowed copy is reported", async () => {
    const other = mkdtempSync(join(tmpdir(), "gym-selector-"));
    mkdirSync(join(other, "resources_servers/mcqa/configs"), { recursive: true });
    writeFileSync(join(other, "resources_servers/mcqa/configs/mcqa.yaml"), "x: 1\n");
    const warnings: string[] = [];
    const path = await selectorPath("resources-server", "mcqa", [{ kind: "dir", path: other }, ...roots], warnings);
    expect(path).toBe(join(other, "resources_servers/mcqa/configs/mcqa.yaml"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`ignoring \`${join(ROOT, "resources_servers/mcqa/configs/mcqa.yaml")}\``);
  });

  test("unknown flavor: did-you-mean over the server's configs, exit 2, searched dirs listed", async () => {
    const error = await usageError(selectorPath("model-type", "openai_model/openai_model_fats", roots));
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe("`--model-type openai_model/openai_model_fats` was specified which implies config `responses_api_models/openai_model/configs/openai_model_fats.yaml`, which does not exist. Did you mean `openai_model_fast`?");
    expect(error.hint).toBe(`See available model-type configs in \`${join(ROOT, "responses_api_models/openai_model/configs")}\`.`);
  });

  test("unknown server: did-you-mean over server names", async () => {
    const error = await usageError(selectorPath("resources-server", "mcqaa", roots));
    expect(error.message).toContain("implies config `resources_servers/mcqaa/configs/mcqaa.yaml`, which does not exist. Did you mean `mcqa`?");
    expect(error.hint).toContain(join(ROOT, "resources_servers"));
  });

  test("benchmarks: a grouping directory suggests the shortest entry under it; typos get a did-you-mean", async () => {
    expect((await usageError(selectorPath("benchmark", "livecodebench", roots))).message).toContain("Did you mean `livecodebench/v5`?");
    expect((await usageError(selectorPath("benchmark", "aime25", roots))).message).toContain("Did you mean `aime24`?");
  });
});

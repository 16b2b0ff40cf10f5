import { expect, test } from "bun:test";
import { gym } from "../../testing/binary.ts";
import { catalog } from "./index.ts";

const NEMO_GYM_TYPES = ["openai_model", "vllm_model", "azure_openai_model", "inference_provider", "litellm_model", "local_vllm_model", "local_vllm_model_proxy", "genrm_model"];

test("every NeMo Gym model server type is built in and listed by `gym list models`", async () => {
  for (const name of NEMO_GYM_TYPES) expect(typeof (await catalog[name]!()).default).toBe("function");
  const r = await gym(["list", "models", "--json"]);
  expect(r.code).toBe(0);
  const names = (JSON.parse(r.stdout) as { name: string }[]).map((m) => m.name);
  for (const name of NEMO_GYM_TYPES) expect(names).toContain(name);
  expect(names).toContain("inference_provider/together");
}, 60_000);

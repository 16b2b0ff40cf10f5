import { expect, test } from "bun:test";
import { deepMerge, tomlDocument } from "./toml.ts";

test("writes scalars, arrays and nested tables as sections; extra_config merges key by key", () => {
  const merged = deepMerge({ model: "m", features: { a: false, b: true }, model_providers: { gym: { name: "gym", base_url: "http://x/v1" } } }, { features: { a: true }, "odd key": [1, "two"] });
  expect(tomlDocument(merged)).toBe(
    'model = "m"\n"odd key" = [1, "two"]\n\n[features]\na = true\nb = true\n\n[model_providers]\n[model_providers.gym]\nname = "gym"\nbase_url = "http://x/v1"\n',
  );
});

import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { mergeAll } from "../../config/merge.ts";
import { overlayBase } from "../../config/overlays.ts";
import { catalog } from "./index.ts";

const dir = import.meta.dir;
const folders = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() && !d.name.startsWith("_")).map((d) => d.name);

describe("resources server catalog", () => {
  test("one catalog line per component folder", () => {
    expect(Object.keys(catalog).sort()).toEqual(folders.sort());
  });

  for (const name of folders) {
    test(`${name}: every upstream config block builds an app that answers GET /`, async () => {
      const factory = (await catalog[name]!()).default;
      const configs = readdirSync(join(dir, name, "configs"));
      expect(configs.length).toBeGreaterThan(0);
      const trees = configs.map((file) => [file, parse(readFileSync(join(dir, name, "configs", file), "utf8"))] as [string, Record<string, any>]);
      for (const [file, tree] of trees) {
        // An overlay (server blocks without an entrypoint, math_with_local_judge.yaml) runs composed after its base, as in NeMo Gym.
        const base = overlayBase(tree, trees.filter(([other]) => other !== file), `${name}.yaml`);
        const config = (base ? mergeAll([trees.find(([other]) => other === base)![1], tree]) : tree) as Record<string, any>;
        // A judge's model-server file beside the server's config (physics_judge/configs/judge_openai.yaml) has no server block.
        if (Object.values(config).every((v) => v?.responses_api_models && !v?.resources_servers)) continue;
        const instances = Object.entries(config).filter(([, v]) => v?.resources_servers?.[name]);
        expect(instances.length).toBe(1);
        const [instance, value] = instances[0]!;
        expect(value.resources_servers[name].entrypoint).toBe("app.py");
        const app = await factory({ ...value.resources_servers[name], name: instance }, { name: instance } as any);
        const res = await app.request("http://localhost/");
        expect(await res.json()).toEqual({ status: "ok" });
      }
    });
  }
});

/** Hostile configs for `gym env validate` and `gym env resolve`: empty files, unclosed interpolations, a null over a server block. */
import { hostileSuite, type HostileCase } from "../hostile.ts";

const SERVER = "my_server:\n  resources_servers:\n    mcqa:\n      entrypoint: app.py\n      domain: knowledge\n";
const MODEL = ["++policy_base_url=http://127.0.0.1:9/v1", "++policy_api_key=x", "++policy_model_name=m"];

const both = (name: string, files: HostileCase["files"], configs: string[], message: HostileCase["message"]): HostileCase[] =>
  (["validate", "resolve"] as const).map((cmd) => ({ name: `env ${cmd}: ${name}`, files, args: ["env", cmd, ...configs.flatMap((c) => ["--config", c]), ...(cmd === "resolve" ? MODEL : [])], message }));

const cases: HostileCase[] = [
  ...both("an empty --config file", { "c.yaml": "" }, ["c.yaml"], ["c.yaml", "is empty"]),
  ...both("a --config file of comments only", { "c.yaml": "# nothing here\n\n" }, ["c.yaml"], ["c.yaml", "only comments"]),
  ...both("an empty file in config_paths", { "c.yaml": `config_paths: [e.yaml]\n${SERVER}`, "e.yaml": "" }, ["c.yaml"], ["e.yaml", "is empty"]),
  ...both("an unclosed ${ in a server field", { "c.yaml": SERVER.replace("domain: knowledge", "domain: knowledge\n      judge_url: ${judge_base_url") }, ["c.yaml"], ["judge_url", "never closed", "c.yaml"]),
  ...both("an unclosed ${ at the top level", { "c.yaml": `${SERVER}x: \${foo\n` }, ["c.yaml"], ["'x'", "never closed"]),
  ...both("a later config nulls a server block (~)", { "a.yaml": SERVER, "b.yaml": "my_server: ~\n" }, ["a.yaml", "b.yaml"], ["'my_server'", "a.yaml", "b.yaml", "null (~)"]),
];

hostileSuite("hostile inputs: gym env validate and env resolve configs", cases);

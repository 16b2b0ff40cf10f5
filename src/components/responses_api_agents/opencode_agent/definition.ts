/**
 * opencode_agent: the OpenCode CLI (`opencode run`) on Chat Completions through the gateway, as NeMo Gym wires a
 * model server: a provider `nemo` (@ai-sdk/openai-compatible, bundled in the CLI) whose baseURL is the relay and
 * whose key is the rollout's token, the model `nemo/<model>`. Its config file, data, cache and state live under the
 * CLI's own HOME (OPENCODE_CONFIG, XDG_*), not in the task's workdir; update checks and catalog fetches are off.
 */
import type { CliAgentConfig, CliAgentDefinition, LaunchContext } from "../_cli_agent/agent.ts";
import { PROMPT } from "../_cli_agent/launch.ts";

export const OPENCODE_VERSION = "1.18.33";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
function merge(base: Json, extra: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(extra)) out[k] = isObject(v) && isObject(out[k]) ? merge(out[k] as Json, v) : v;
  return out;
}

function opencodeJson(config: CliAgentConfig, ctx: LaunchContext): string {
  const user = isObject(config.opencode_config) ? config.opencode_config : {};
  const limit = { context: typeof config.context_window === "number" ? config.context_window : 131072, output: typeof config.max_output_tokens === "number" ? config.max_output_tokens : 8192 };
  const base: Json = {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    permission: { bash: "allow", edit: "allow", webfetch: "allow" },
  };
  const merged = merge(base, user);
  // The gym provider is written last: the gateway and the token always win over a configured provider of that name.
  merged.provider = {
    ...(isObject(merged.provider) ? merged.provider : {}),
    nemo: { npm: "@ai-sdk/openai-compatible", name: "gym", options: { baseURL: `${ctx.origin}/v1`, apiKey: ctx.token }, models: { [ctx.model]: { name: ctx.model, limit } } },
  };
  merged.model = `nemo/${ctx.model}`;
  merged.small_model = `nemo/${ctx.model}`;
  return `${JSON.stringify(merged, null, 2)}\n`;
}

export const opencodeAgent: CliAgentDefinition = {
  implementation: "opencode_agent",
  cli: {
    // OpenCode's per-platform package itself (opencode-ai only picks one of these in a postinstall script, and
    // names every platform's, which an npm mirror may not carry: npm ci then refuses the lock file).
    packageName: `opencode-${process.platform}-${process.arch}`,
    pinnedVersion: OPENCODE_VERSION,
    // The per-platform package's executable first: the main package's bin/ is a placeholder until its postinstall runs.
    executables: [...["", "-baseline"].map((flavor) => `opencode-${process.platform}-${process.arch}${flavor}/bin/opencode`)],
  },
  versionKey: "opencode_version",
  api: "chat",
  homeFiles: (config, ctx) => ({ ".config/opencode/opencode.json": opencodeJson(config, ctx) }),
  argv: (config, ctx) => {
    const extra = Array.isArray(config.extra_args) ? config.extra_args.map(String) : [];
    return ["run", "-m", `nemo/${ctx.model}`, "--dir", ctx.workdir, "--format", "json", ...(config.thinking === true ? ["--thinking"] : []), ...extra, PROMPT];
  },
  env: (config, ctx) => ({
    ...(isObject(config.env) ? Object.fromEntries(Object.entries(config.env).filter(([, v]) => v).map(([k, v]) => [k, String(v)])) : {}),
    OPENCODE_CONFIG: `${ctx.home}/.config/opencode/opencode.json`,
    XDG_CONFIG_HOME: `${ctx.home}/.config`,
    XDG_DATA_HOME: `${ctx.home}/.local/share`,
    XDG_CACHE_HOME: `${ctx.home}/.cache`,
    XDG_STATE_HOME: `${ctx.home}/.local/state`,
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENAI_API_KEY: ctx.token,
    NO_COLOR: "1",
  }),
};

/** `vllm serve` arguments and environment from a local_vllm_model config, as NeMo Gym composes them. */
import { join } from "node:path";

export interface LocalVllmConfig {
  name?: string;
  model: string;
  /** Set: a vLLM that is already running; nothing is started. */
  base_url?: string | string[];
  api_key?: string;
  /** Where the model is (or is downloaded): vLLM's `--download-dir` is `<hf_home>/hub`. Default `./.cache/huggingface`. */
  hf_home?: string | null;
  /** `vllm serve` flags by their argparse names (`tensor_parallel_size: 8` → `--tensor-parallel-size 8`). */
  vllm_serve_kwargs?: Record<string, unknown> | null;
  vllm_serve_env_vars?: Record<string, string> | null;
  /** Print vLLM's own log lines (stderr) as they come. */
  debug?: boolean;
  show_vllm_engine_stats?: boolean;
  /** Gym extension: how long to wait for `vllm serve` to answer (default 1800 s: weights can take long to load). */
  vllm_startup_timeout_s?: number;
}

/** One `vllm serve` flag: true → `--flag`, false/null → nothing, an object → JSON, a list → `--flag a b`. */
function flag(key: string, value: unknown): string[] {
  const name = `--${key.replace(/_/g, "-")}`;
  if (value === null || value === undefined || value === false) return [];
  if (value === true) return [name];
  if (Array.isArray(value)) return [name, ...value.map((v) => (typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)))];
  if (typeof value === "object") return [name, JSON.stringify(value)];
  return [name, String(value)];
}

/**
 * `vllm serve <model> …`: the user's `vllm_serve_kwargs`, then what NeMo Gym forces (the port it picked and
 * `--download-dir`); the host is 127.0.0.1 unless the kwargs name one (NeMo Gym binds 0.0.0.0 for Ray's
 * cross-node traffic; gym starts vLLM directly, without Ray, so its Ray backends are not passed).
 */
export function vllmServeArgv(config: LocalVllmConfig, port: number, cwd: string): string[] {
  const kwargs: Record<string, unknown> = { host: "127.0.0.1", ...(config.vllm_serve_kwargs ?? {}) };
  delete kwargs.model;
  kwargs.port = port;
  kwargs.download_dir = join(hfHome(config, cwd), "hub");
  return ["serve", config.model, ...Object.entries(kwargs).flatMap(([key, value]) => flag(key, value))];
}

/** The environment of `vllm serve`: gym's own, HF transfer on, HF_TOKEN (from the config's `hf_token` or the environment), then the config's variables. */
export function vllmServeEnv(config: LocalVllmConfig, base: Record<string, string | undefined>, hfToken: string | undefined, cwd: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined) env[key] = value;
  env.HF_HOME = hfHome(config, cwd);
  env.HF_HUB_ENABLE_HF_TRANSFER = "1";
  if (hfToken) env.HF_TOKEN = hfToken;
  for (const [key, value] of Object.entries(config.vllm_serve_env_vars ?? {})) env[key] = String(value);
  return env;
}

function hfHome(config: LocalVllmConfig, cwd: string): string {
  return config.hf_home ? String(config.hf_home) : join(cwd, ".cache", "huggingface");
}

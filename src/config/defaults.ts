/** Filled-in defaults (§1.5): each server's host and port, agent skip_verification defaults, and the reserved top-level keys. */
import { createServer } from "node:net";
import { homedir, networkInterfaces } from "node:os";
import { join, resolve } from "node:path";
import { GymError } from "../errors.ts";
import { isMapping, type ConfigMap, type ConfigValue } from "./_tree.ts";
import type { ServerInstance } from "./servers.ts";

export const DEFAULT_HEAD_SERVER_PORT = 11000;

export interface DefaultsOptions {
  /** `run` picks free ports; `offline` sets missing ports to -1 and probes nothing (resolve, validate). */
  mode: "run" | "offline";
  cwd: string;
  /** Reads a (possibly interpolated) top-level value. */
  read: (key: string) => ConfigValue | undefined;
  /** Picks a free port in the range avoiding `disallowed` (run mode). Injected by tests. */
  findPort?: (low: number, high: number, disallowed: number[]) => Promise<number>;
}

function setDefault(tree: ConfigMap, key: string, value: ConfigValue): ConfigValue {
  if (!Object.hasOwn(tree, key)) tree[key] = value;
  return tree[key]!;
}

/** Fills defaults in place, in the order NeMo Gym adds them (so `env resolve` output lines up). */
export async function fillDefaults(tree: ConfigMap, instances: ServerInstance[], options: DefaultsOptions): Promise<void> {
  setDefault(tree, "use_absolute_ip", false);
  const useAbsoluteIp = options.read("use_absolute_ip") === true && options.mode === "run";
  const defaultHost = useAbsoluteIp ? machineIp() : (options.read("default_host") as string | undefined) || "127.0.0.1";
  const head = options.read("head_server");
  const headPort = isMapping(head) && head.port !== undefined ? (head.port as number | null) : DEFAULT_HEAD_SERVER_PORT;
  const disallowed: number[] = headPort === null ? [] : [headPort];
  const low = Number(setDefault(tree, "port_range_low", 10_001));
  const high = Number(setDefault(tree, "port_range_high", 20_000));
  const findPort = options.findPort ?? findFreePort;
  const skipVerification = options.read("skip_verification");
  const skipReward = options.read("skip_verification_reward");

  for (const instance of instances) {
    const block = instance.block;
    if (!block.host) block.host = defaultHost;
    if (!block.port) {
      // Offline resolution must not look as if a runnable port was allocated.
      block.port = options.mode === "offline" ? -1 : await findPort(low, high, disallowed);
      if (options.mode !== "offline") disallowed.push(block.port);
    } else disallowed.push(Number(block.port));
    if (instance.serverType === "responses_api_agents") {
      if (skipVerification !== undefined && skipVerification !== null && !Object.hasOwn(block, "skip_verification")) block.skip_verification = skipVerification;
      if (skipReward !== undefined && skipReward !== null && !Object.hasOwn(block, "skip_verification_reward")) block.skip_verification_reward = skipReward;
    }
  }

  if (!tree.head_server) tree.head_server = { host: defaultHost, port: DEFAULT_HEAD_SERVER_PORT };
  tree.disallowed_ports = disallowed;
  const skew = setDefault(tree, "allow_openai_version_skew", false);
  if (typeof skew !== "boolean") {
    throw new GymError("E_CONFIG", `allow_openai_version_skew must be a boolean (true/false), got ${JSON.stringify(skew)}.`, { hint: "Set +allow_openai_version_skew=true or false." });
  }
  setDefault(tree, "skip_venv_if_present", false);
  setDefault(tree, "dry_run", false);
  setDefault(tree, "model_endpoint_readiness_timeout_seconds", 600);
  for (const [key, fallback] of [["results_dir", "results"], ["cache_dir", "cache"]] as const) {
    if (!Object.hasOwn(tree, key)) tree[key] = join(options.cwd, fallback);
    const value = options.read(key) ?? tree[key];
    if (typeof value !== "string" || value === "") {
      throw new GymError("E_CONFIG", `${key} must be a non-empty path string, got ${JSON.stringify(value)}.`, { hint: `Set +${key}=<directory>.` });
    }
    // Made absolute here because child processes resolve relative paths against their own working directory.
    tree[key] = resolve(options.cwd, value.replace(/^~(?=$|\/)/, homedir()));
  }
  setDefault(tree, "uv_cache_dir", join(tree.cache_dir as string, "uv"));
  setDefault(tree, "uv_venv_dir", options.cwd);
}

/** This machine's first non-internal IPv4 address (for use_absolute_ip: true), else 127.0.0.1. */
function machineIp(): string {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) if (address.family === "IPv4" && !address.internal) return address.address;
  }
  return "127.0.0.1";
}

/** A random free port in [low, high] that is not disallowed (bind-probe on all interfaces, as NeMo Gym does). */
export async function findFreePort(low: number, high: number, disallowed: number[], attempts = 50): Promise<number> {
  for (let i = 0; i < attempts; i++) {
    let port: number;
    do port = low + Math.floor(Math.random() * (high - low + 1));
    while (disallowed.includes(port));
    if (await canBind(port)) return port;
  }
  throw new GymError("E_CONFIG", `Unable to find an open port in ${low}-${high} that avoids ${JSON.stringify(disallowed)} after ${attempts} attempts.`, {
    hint: "Widen +port_range_low / +port_range_high, or free some ports.",
  });
}

function canBind(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once("error", () => done(false));
    server.listen(port, "127.0.0.1", () => server.close(() => done(true)));
  });
}

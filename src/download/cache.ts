/** Where downloads live and whether the network may be used: the cache root, offline switches and the offline refusal. */
import { homedir } from "node:os";
import { join } from "node:path";
import { GymError } from "../errors.ts";

export type Env = Record<string, string | undefined>;

/**
 * The download cache root: NEMO_GYM_CACHE_DIR (or GYM_CACHE_DIR), else $XDG_CACHE_HOME/gym, else ~/.cache/gym.
 * `gym env prefetch` fills it; a container or an offline machine reads it.
 */
export function cacheDir(env: Env = process.env): string {
  return env.NEMO_GYM_CACHE_DIR || env.GYM_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "gym");
}

/** True when HF_HUB_OFFLINE or GYM_OFFLINE is set to 1/true/yes/on: downloads must come from the cache. */
export function isOffline(env: Env = process.env): boolean {
  return [env.HF_HUB_OFFLINE, env.GYM_OFFLINE].some((v) => v !== undefined && /^(1|true|yes|on)$/i.test(v.trim()));
}

/** How to fill the cache on a machine that has network, told to a user whose machine has none. */
export function prefetchHint(env: Env = process.env): string {
  return (
    `On a machine with network access run \`gym env prefetch <the same config flags>\` (or \`gym dataset download …\`) ` +
    `with NEMO_GYM_CACHE_DIR=${cacheDir(env)}, then copy that folder here; or unset HF_HUB_OFFLINE/GYM_OFFLINE, or point HF_ENDPOINT at a reachable mirror.`
  );
}

/** The refusal when offline mode forbids a download whose file is not in the cache. */
export function offlineError(url: string, cached: string, env: Env = process.env): GymError {
  const which = env.HF_HUB_OFFLINE !== undefined && isOffline({ HF_HUB_OFFLINE: env.HF_HUB_OFFLINE }) ? "HF_HUB_OFFLINE" : "GYM_OFFLINE";
  return new GymError("E_IO", `Offline (${which} is set): ${url} is needed but not in the cache (${cached}).`, { hint: prefetchHint(env) });
}

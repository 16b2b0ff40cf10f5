/** Reaching servers someone else started (`gym env start`, or Python NeMo Gym) through their head server (§1.4). */
import { parse } from "yaml";
import { GymError } from "../errors.ts";
import { serverInstancesOf } from "./instances.ts";
import { ServerRegistry, type RegistryOptions } from "./registry.ts";

/** The merged config a head server holds: `GET /global_config_dict_yaml` is a JSON string of YAML. */
export async function fetchGlobalConfig(headUrl: string, timeoutMs = 5000): Promise<Record<string, unknown>> {
  let text: string;
  try {
    const response = await fetch(`${headUrl.replace(/\/+$/, "")}/global_config_dict_yaml`, { signal: AbortSignal.timeout(timeoutMs) });
    text = (await response.json()) as string;
  } catch (error) {
    throw new GymError("E_SERVER", `Could not read the config from the head server at ${headUrl}: ${(error as Error).message}`, {
      hint: "Start the servers first (`gym env start`), or point at the right head server with +head_server.host/+head_server.port.",
      cause: error,
    });
  }
  const config = parse(text, { version: "1.1" }) as Record<string, unknown> | null;
  return config ?? {};
}

/** A registry whose every instance is an HTTP client at the host/port the head server's config gives. */
export async function registryFromHeadServer(headUrl: string, options: Omit<RegistryOptions, "connect"> = {}): Promise<ServerRegistry> {
  const config = await fetchGlobalConfig(headUrl);
  return ServerRegistry.create(serverInstancesOf(config), { ...options, connect: "http", globalConfig: config });
}

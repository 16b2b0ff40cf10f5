/** The head server (protocol.md §2.2): liveness, the merged config as a JSON string of YAML, and the running instances. */
import { Hono } from "hono";

/** One running server as `GET /server_instances` lists it (Python's ServerInstanceDisplayConfig, field order kept). */
export interface ServerInstanceInfo {
  config_path: string | null;
  dir_path: string | null;
  entrypoint: string | null;
  host: string | null;
  name: string | null;
  pid: number | null;
  port: number | null;
  process_name: string | null;
  server_type: string | null;
  start_time: number | null;
  status: "success" | "connection_error" | "timeout" | "unknown_error" | null;
  uptime_seconds: number | null;
  url: string | null;
}

export interface HeadServerOptions {
  /** The merged config as YAML (what `GET /global_config_dict_yaml` returns, JSON-encoded as a string). */
  configYaml: string;
  instances: () => ServerInstanceInfo[];
}

export function createHeadApp(options: HeadServerOptions): Hono {
  const app = new Hono();
  app.get("/", (c) => c.json({ status: "ok" }));
  // A JSON *string* whose content is YAML: clients JSON-decode, then YAML-parse (NeMo Gym's quirk, kept for interop).
  app.get("/global_config_dict_yaml", (c) => c.json(options.configYaml));
  app.get("/server_instances", (c) => c.json(options.instances()));
  app.notFound((c) => c.json({ detail: "Not Found" }, 404));
  return app;
}

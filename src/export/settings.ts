/** Which tracking backends a config names, with their credentials (the command's keys, env.yaml, then the SDKs' environment variables). */
import { GymError } from "../errors.ts";
import type { TrackingBackend } from "./backend.ts";
import { mlflowBackend } from "./mlflow.ts";
import { wandbBackend } from "./wandb.ts";

export const TRACKERS = ["mlflow", "wandb"] as const;
export type Tracker = (typeof TRACKERS)[number];

const str = (v: unknown) => (typeof v === "string" && v.trim() && v !== "****" ? v.trim() : undefined);

const NEEDS: Record<Tracker, [key: string, env?: string][]> = {
  mlflow: [["mlflow_tracking_uri", "MLFLOW_TRACKING_URI"], ["mlflow_experiment_name", "MLFLOW_EXPERIMENT_NAME"], ["mlflow_run_name", "MLFLOW_RUN_NAME"]],
  wandb: [["wandb_project", "WANDB_PROJECT"], ["wandb_name", "WANDB_NAME"], ["wandb_api_key", "WANDB_API_KEY"]],
};

/** The settings a tracker needs that `keys` and the environment leave unset. */
export function missingSettings(tracker: Tracker, keys: Record<string, unknown>, env: Record<string, string | undefined> = process.env): string[] {
  return NEEDS[tracker].filter(([key, envName]) => !str(keys[key]) && !(envName && str(env[envName]))).map(([key]) => key);
}

/** Whether a config mentions a tracker at all (any of its keys set), so a half-configured one is reported, never ignored. */
export function mentioned(tracker: Tracker, keys: Record<string, unknown>): boolean {
  return Object.keys(keys).some((k) => k.startsWith(`${tracker}_`) && keys[k] !== null && keys[k] !== undefined && keys[k] !== "");
}

/** The backend of a tracker, or a GymError naming each missing setting and how to pass it. */
export function trackerBackend(tracker: Tracker, keys: Record<string, unknown>, env: Record<string, string | undefined> = process.env): TrackingBackend {
  const missing = missingSettings(tracker, keys, env);
  if (missing.length) {
    throw new GymError("E_CONFIG", `${tracker === "mlflow" ? "MLflow" : "W&B"} needs ${missing.join(", ")}, which neither the command, env.yaml nor the environment sets.`, {
      hint: `Pass ${missing.map((k) => `+${k}=…`).join(" ")} (credentials also from env.yaml or ${NEEDS[tracker].filter(([k]) => missing.includes(k)).map(([, e]) => e).join(" / ")}).`,
    });
  }
  const get = (key: string) => str(keys[key]) ?? str(env[NEEDS[tracker].find(([k]) => k === key)?.[1] ?? ""])!;
  if (tracker === "mlflow") {
    return mlflowBackend({ trackingUri: get("mlflow_tracking_uri"), token: str(keys.mlflow_tracking_token) ?? str(env.MLFLOW_TRACKING_TOKEN), experimentName: get("mlflow_experiment_name"), runName: get("mlflow_run_name") });
  }
  return wandbBackend({ apiKey: get("wandb_api_key"), project: get("wandb_project"), name: get("wandb_name"), entity: str(keys.wandb_entity) ?? str(env.WANDB_ENTITY), baseUrl: str(env.WANDB_BASE_URL) ?? "https://api.wandb.ai" });
}

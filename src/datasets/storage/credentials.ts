/** Where dataset storage finds its settings and tokens: the environment first, then env.yaml; tokens are never printed. */
import { componentRoots } from "../../config/roots.ts";
import { loadEnvYaml } from "../../config/load.ts";
import type { Env } from "../../download/index.ts";

export interface StorageSettings {
  env: Env;
  hfToken?: string;
  hfOrganization?: string;
  gitlabUrl?: string;
  gitlabProjectId?: string;
  gitlabToken?: string;
}

const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : typeof v === "number" ? String(v) : undefined);

/**
 * HF_TOKEN / HF_ORGANIZATION / GITLAB_URL / GITLAB_PROJECT_ID / GITLAB_TOKEN from the environment, else
 * `hf_token`, `hf_organization`, `gitlab_url`, `gitlab_project_id`, `gitlab_token` from env.yaml.
 */
export async function storageSettings(env: Env = process.env, cwd = process.cwd()): Promise<StorageSettings> {
  const file = await loadEnvYaml(componentRoots({ cwd, env })).catch(() => undefined);
  const y = (file?.tree ?? {}) as Record<string, unknown>;
  const settings: StorageSettings = {
    env,
    hfToken: str(env.HF_TOKEN) ?? str(env.HUGGING_FACE_HUB_TOKEN) ?? str(y.hf_token),
    hfOrganization: str(env.HF_ORGANIZATION) ?? str(y.hf_organization),
    gitlabUrl: str(env.GITLAB_URL) ?? str(y.gitlab_url),
    gitlabProjectId: str(env.GITLAB_PROJECT_ID) ?? str(y.gitlab_project_id),
    gitlabToken: str(env.GITLAB_TOKEN) ?? str(y.gitlab_token),
  };
  // The download layer reads HF_TOKEN from its env: hand it the env.yaml token too.
  if (settings.hfToken && !env.HF_TOKEN) settings.env = { ...env, HF_TOKEN: settings.hfToken };
  return settings;
}

/**
 * Weights & Biases through the three calls its own SDKs make: GraphQL `upsertBucket` (the run and its config),
 * the run's file stream (history and summary), and `RunUploadUrls` + PUT for files. Not `@wandb/sdk`: it installs
 * SIGINT/SIGTERM handlers that call process.exit (a run's Ctrl-C drain would die with it) and works through a worker.
 */
import { backendFetch, BackendError, type TrackingBackend, type TrackingRun } from "./backend.ts";

export interface WandbSettings {
  apiKey: string;
  project: string;
  name: string;
  entity?: string;
  /** WANDB_BASE_URL, else W&B's public API. */
  baseUrl: string;
}

const UPSERT = `mutation UpsertBucket($id: String, $name: String, $project: String, $entity: String, $displayName: String, $config: JSONString, $summaryMetrics: JSONString, $state: String) {
  upsertBucket(input: {id: $id, name: $name, modelName: $project, entityName: $entity, displayName: $displayName, config: $config, summaryMetrics: $summaryMetrics, state: $state}) {
    bucket { id name displayName project { id name entity { id name } } }
    inserted
  }
}`;
const VIEWER = "query Viewer { viewer { id entity } }";
const UPLOAD_URLS = `query RunUploadUrls($name: String!, $files: [String]!, $entity: String, $run: String!) {
  model(name: $name, entityName: $entity) { bucket(name: $run) { id files(names: $files) { uploadHeaders edges { node { name url(upload: true) } } } } }
}`;

const runName = () => Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => "abcdefghijklmnopqrstuvwxyz0123456789"[b % 36]).join("");

export function wandbBackend(s: WandbSettings): TrackingBackend {
  const base = s.baseUrl.replace(/\/+$/, "");
  const auth = `Basic ${btoa(`api:${s.apiKey}`)}`;
  const graphql = async (query: string, variables: Record<string, unknown>) => {
    const response = await backendFetch("W&B", `${base}/graphql`, { method: "POST", headers: { authorization: auth, "content-type": "application/json" }, body: JSON.stringify({ query, variables }) });
    const body = (await response.json()) as { data?: any; errors?: { message: string }[] };
    if (body.errors?.length) throw new BackendError("W&B", `W&B refused the request: ${body.errors.map((e) => e.message).join("; ")}`);
    return body.data;
  };

  return {
    name: "wandb",
    async open(): Promise<TrackingRun> {
      const entity = s.entity ?? (await graphql(VIEWER, {})).viewer?.entity;
      if (!entity) throw new BackendError("W&B", "W&B did not say which entity this API key belongs to; set +wandb_entity.");
      const name = runName();
      const bucket = (await graphql(UPSERT, { name, project: s.project, entity, displayName: s.name, state: "running" })).upsertBucket.bucket;
      const project = bucket.project?.name ?? s.project;
      const stream = async (body: Record<string, unknown>) =>
        backendFetch("W&B", `${base}/files/${entity}/${project}/${name}/file_stream`, { method: "POST", headers: { authorization: auth, "content-type": "application/json" }, body: JSON.stringify(body) });
      let history = 0;
      return {
        id: `${entity}/${project}/${name}`,
        url: `${base}/${entity}/${project}/runs/${name}`,
        async logConfig(config) {
          const wrapped = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { value: v, desc: null }]));
          await graphql(UPSERT, { name, project, entity, config: JSON.stringify(wrapped) });
        },
        async logMetrics(metrics) {
          const line = JSON.stringify({ ...metrics, _step: history, _timestamp: Date.now() / 1000 });
          await stream({ files: { "wandb-history.jsonl": { offset: history, content: [line] }, "wandb-summary.json": { offset: 0, content: [JSON.stringify(metrics)] } } });
          history++;
          await graphql(UPSERT, { name, project, entity, summaryMetrics: JSON.stringify(metrics) });
        },
        async logRollouts(rows) {
          const file = "rollouts.table.json";
          const found = (await graphql(UPLOAD_URLS, { name: project, entity, run: name, files: [file] })).model?.bucket?.files;
          const url = found?.edges?.[0]?.node?.url;
          if (!url) throw new BackendError("W&B", `W&B gave no upload URL for ${file}`);
          const headers = Object.fromEntries((found.uploadHeaders ?? []).map((h: string) => h.split(/:(.*)/s).map((x) => x.trim()) as [string, string]));
          await backendFetch("W&B", url, { method: "PUT", headers, body: JSON.stringify({ columns: ["Rollout"], data: rows.map((r) => [JSON.stringify(r)]) }) });
        },
        async close(ok) {
          await stream({ complete: true, exitcode: ok ? 0 : 1 });
        },
      };
    },
  };
}

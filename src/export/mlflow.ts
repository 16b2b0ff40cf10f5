/**
 * MLflow through its REST API (the npm client prints request bodies to stdout and cannot upload artifacts).
 * What NeMo Gym's MLflow exporter logs: the config as `global_config.json` and flattened params, scalar metrics
 * (strings as tags), and the rollouts as the table artifact `rollouts.json`.
 */
import { backendFetch, BackendError, type TrackingBackend, type TrackingRun } from "./backend.ts";

export interface MlflowSettings {
  trackingUri: string;
  token?: string;
  experimentName: string;
  runName: string;
}

const BATCH_PARAMS = 100;
const BATCH_METRICS = 1000;
const MAX_VALUE = 6000;
const MAX_KEY = 250;

/** A metric/param name as MLflow accepts it (NeMo Gym's rule: `@` spelled `_at_`, other odd characters `_`, long names cut in the middle). */
export function mlflowKey(key: string): string | undefined {
  let k = key.replace(/@/g, "_at_").replace(/[^/\w.\- :]/g, "_");
  const normalize = (s: string) => s.split("/").filter(Boolean).map((seg) => (/^\.+$/.test(seg) ? "_".repeat(seg.length) : seg)).join("/").replace(/^\.+/, (m) => "_".repeat(m.length));
  k = normalize(k);
  if (k.length > MAX_KEY) {
    const kept = MAX_KEY - 3;
    const tail = Math.floor(kept / 2);
    k = normalize(`${k.slice(0, kept - tail)}___${k.slice(-tail)}`);
  }
  return k || undefined;
}

function flatten(value: unknown, prefix = "", out: [string, unknown][] = []): [string, unknown][] {
  if (value && typeof value === "object" && !Array.isArray(value)) for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  else if (Array.isArray(value)) value.forEach((v, i) => flatten(v, `${prefix}[${i}]`, out));
  else if (prefix) out.push([prefix, value]);
  return out;
}

const chunks = <T>(items: T[], size: number) => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

export function mlflowBackend(s: MlflowSettings): TrackingBackend {
  const base = s.trackingUri.replace(/\/+$/, "");
  const headers = { "content-type": "application/json", ...(s.token ? { authorization: `Bearer ${s.token}` } : {}) };
  const api = async (path: string, body?: unknown, method = body === undefined ? "GET" : "POST") =>
    (await backendFetch("MLflow", `${base}/api/2.0/mlflow/${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<Record<string, any>>;

  async function experimentId(): Promise<string> {
    try {
      return (await api(`experiments/get-by-name?experiment_name=${encodeURIComponent(s.experimentName)}`)).experiment.experiment_id;
    } catch (error) {
      if (!(error instanceof BackendError) || error.status !== 404) throw error;
    }
    try {
      return (await api("experiments/create", { name: s.experimentName })).experiment_id;
    } catch (error) {
      // Lost a create race against a concurrent shard: the experiment exists now.
      if (error instanceof BackendError && error.status === 400) return (await api(`experiments/get-by-name?experiment_name=${encodeURIComponent(s.experimentName)}`)).experiment.experiment_id;
      throw error;
    }
  }

  return {
    name: "mlflow",
    async open(): Promise<TrackingRun> {
      const experiment = await experimentId();
      const info = (await api("runs/create", { experiment_id: experiment, run_name: s.runName, start_time: Date.now(), tags: [{ key: "mlflow.runName", value: s.runName }] })).run.info;
      const runId: string = info.run_id;
      const artifactUri: string = info.artifact_uri ?? "";
      const upload = async (file: string, text: string) => {
        const m = /^mlflow-artifacts:\/(.*)$/.exec(artifactUri);
        if (!m) throw new BackendError("MLflow", `MLflow gave run ${runId} the artifact location '${artifactUri}', which gym cannot upload to; it needs a server that proxies artifacts (\`mlflow server --serve-artifacts\`, the default since MLflow 2.0).`);
        const path = `${m[1]!.replace(/^\/+/, "")}/${file}`;
        await backendFetch("MLflow", `${base}/api/2.0/mlflow-artifacts/artifacts/${path}`, { method: "PUT", headers: { ...headers, "content-type": "application/json" }, body: text });
      };
      const batch = (body: Record<string, unknown>) => api("runs/log-batch", { run_id: runId, ...body });
      return {
        id: runId,
        url: `${base}/#/experiments/${experiment}/runs/${runId}`,
        async logConfig(config) {
          await upload("global_config.json", JSON.stringify(config, null, 2));
          const params = flatten(config).flatMap(([k, v]) => {
            const key = mlflowKey(k);
            return key ? [{ key, value: String(v).slice(0, MAX_VALUE) }] : [];
          });
          const seen = new Set<string>();
          const unique = params.filter((p) => !seen.has(p.key) && seen.add(p.key));
          for (const part of chunks(unique, BATCH_PARAMS)) await batch({ params: part });
        },
        async logMetrics(metrics) {
          const timestamp = Date.now();
          const numeric: object[] = [];
          const tags: object[] = [];
          for (const [k, v] of Object.entries(metrics)) {
            const key = mlflowKey(k);
            if (!key) continue;
            if (typeof v === "number" || typeof v === "boolean") numeric.push({ key, value: Number(v), timestamp, step: 0 });
            else if (typeof v === "string") tags.push({ key, value: v.slice(0, MAX_VALUE) });
          }
          for (const part of chunks(numeric, BATCH_METRICS)) await batch({ metrics: part });
          for (const part of chunks(tags, BATCH_PARAMS)) await batch({ tags: part });
        },
        async logRollouts(rows) {
          await upload("rollouts.json", JSON.stringify({ columns: ["Rollout"], data: rows.map((r) => [JSON.stringify(r)]) }));
        },
        async close(ok) {
          await api("runs/update", { run_id: runId, status: ok ? "FINISHED" : "FAILED", end_time: Date.now() });
        },
      };
    },
  };
}

/**
 * Local stand-ins for an MLflow tracking server and the W&B API (neither can be installed here), on 127.0.0.1.
 * They follow the real APIs' routes and shapes (MLflow REST 2.0 with proxied artifacts; W&B's GraphQL
 * upsertBucket / Viewer / RunUploadUrls and the run file stream) and record what they receive.
 */
import { Hono } from "hono";
import { serve, type ServedApp } from "../runtime/serve.ts";

export interface FakeOptions {
  /** The credential the fake accepts (MLflow bearer token / W&B API key); anything else is a 401. */
  key?: string;
  /** Answer this status to every request while set (a backend that is down). */
  failWith?: number;
}

export interface MlflowRun {
  run_id: string;
  experiment_id: string;
  run_name: string;
  status: string;
  params: Record<string, string>;
  metrics: Record<string, number>;
  tags: Record<string, string>;
  artifacts: Record<string, string>;
}

export interface FakeServer<T> extends ServedApp {
  runs: T[];
  options: FakeOptions;
}

/** An MLflow tracking server (REST API 2.0, artifacts proxied under mlflow-artifacts:/). */
export async function startFakeMlflow(options: FakeOptions = {}): Promise<FakeServer<MlflowRun>> {
  const runs: MlflowRun[] = [];
  const experiments = new Map<string, string>();
  const app = new Hono();
  app.use("*", async (c, next) => {
    if (options.failWith) return c.json({ error_code: "INTERNAL_ERROR", message: "the fake is failing on purpose" }, options.failWith as 500);
    if (options.key && c.req.header("authorization") !== `Bearer ${options.key}`) return c.json({ error_code: "UNAUTHENTICATED", message: "Invalid token" }, 401);
    await next();
  });
  const api = "/api/2.0/mlflow";
  app.get(`${api}/experiments/get-by-name`, (c) => {
    const name = c.req.query("experiment_name") ?? "";
    const id = experiments.get(name);
    return id ? c.json({ experiment: { experiment_id: id, name, lifecycle_stage: "active" } }) : c.json({ error_code: "RESOURCE_DOES_NOT_EXIST", message: `Could not find experiment with name '${name}'` }, 404);
  });
  app.post(`${api}/experiments/create`, async (c) => {
    const { name } = await c.req.json();
    if (experiments.has(name)) return c.json({ error_code: "RESOURCE_ALREADY_EXISTS", message: `Experiment '${name}' already exists.` }, 400);
    experiments.set(name, String(experiments.size + 1));
    return c.json({ experiment_id: experiments.get(name) });
  });
  app.post(`${api}/runs/create`, async (c) => {
    const body = await c.req.json();
    const run: MlflowRun = { run_id: crypto.randomUUID().replace(/-/g, ""), experiment_id: body.experiment_id, run_name: body.run_name, status: "RUNNING", params: {}, metrics: {}, tags: {}, artifacts: {} };
    runs.push(run);
    return c.json({ run: { info: { run_id: run.run_id, experiment_id: run.experiment_id, run_name: run.run_name, status: "RUNNING", artifact_uri: `mlflow-artifacts:/${run.experiment_id}/${run.run_id}/artifacts` }, data: {} } });
  });
  const find = (id: string) => runs.find((r) => r.run_id === id);
  app.post(`${api}/runs/log-batch`, async (c) => {
    const body = await c.req.json();
    const run = find(body.run_id);
    if (!run) return c.json({ error_code: "RESOURCE_DOES_NOT_EXIST", message: "no such run" }, 404);
    for (const p of body.params ?? []) run.params[p.key] = p.value;
    for (const m of body.metrics ?? []) {
      if (typeof m.value !== "number" || typeof m.timestamp !== "number") return c.json({ error_code: "INVALID_PARAMETER_VALUE", message: `bad metric ${m.key}` }, 400);
      run.metrics[m.key] = m.value;
    }
    for (const t of body.tags ?? []) run.tags[t.key] = t.value;
    return c.json({});
  });
  app.post(`${api}/runs/update`, async (c) => {
    const body = await c.req.json();
    const run = find(body.run_id);
    if (!run) return c.json({ error_code: "RESOURCE_DOES_NOT_EXIST", message: "no such run" }, 404);
    run.status = body.status;
    return c.json({ run_info: { run_id: run.run_id, status: run.status } });
  });
  app.put("/api/2.0/mlflow-artifacts/artifacts/*", async (c) => {
    const path = c.req.path.slice("/api/2.0/mlflow-artifacts/artifacts/".length);
    const [, runId, , ...file] = path.split("/");
    const run = find(runId ?? "");
    if (!run) return c.json({ error_code: "RESOURCE_DOES_NOT_EXIST", message: "no such run" }, 404);
    run.artifacts[file.join("/")] = await c.req.text();
    return c.json({});
  });
  const served = await serve((request) => app.fetch(request));
  return Object.assign(served, { runs, options });
}

export interface WandbRun {
  name: string;
  entity: string;
  project: string;
  displayName?: string;
  config: Record<string, unknown>;
  summary: Record<string, unknown>;
  history: Record<string, unknown>[];
  files: Record<string, string>;
  complete: boolean;
  exitcode?: number;
}

/** The W&B API as its SDKs use it: POST /graphql (Viewer, UpsertBucket, RunUploadUrls), the file stream, upload URLs. */
export async function startFakeWandb(options: FakeOptions = {}): Promise<FakeServer<WandbRun>> {
  const runs: WandbRun[] = [];
  const app = new Hono();
  let base = "";
  app.use("*", async (c, next) => {
    if (options.failWith) return c.text("the fake is failing on purpose", options.failWith as 500);
    if (c.req.path.startsWith("/upload/")) return next();
    const auth = c.req.header("authorization") ?? "";
    if (options.key && auth !== `Basic ${btoa(`api:${options.key}`)}`) return c.json({ errors: [{ message: "user is not logged in" }] }, 401);
    await next();
  });
  const find = (entity: string, project: string, name: string) => runs.find((r) => r.entity === entity && r.project === project && r.name === name);
  app.post("/graphql", async (c) => {
    const { query, variables: v = {} } = await c.req.json();
    if (/query Viewer/.test(query)) return c.json({ data: { viewer: { id: "VXNlcjox", entity: "gym-user", flags: "{}", teams: { edges: [] } } } });
    if (/mutation UpsertBucket/.test(query)) {
      const entity = v.entity ?? "gym-user";
      let run = find(entity, v.project, v.name);
      const inserted = !run;
      if (!run) runs.push((run = { name: v.name, entity, project: v.project, config: {}, summary: {}, history: [], files: {}, complete: false }));
      if (v.displayName) run.displayName = v.displayName;
      if (v.config) run.config = JSON.parse(v.config);
      if (v.summaryMetrics) run.summary = JSON.parse(v.summaryMetrics);
      return c.json({ data: { upsertBucket: { bucket: { id: btoa(`Run:${run.name}`), name: run.name, displayName: run.displayName ?? null, description: null, config: JSON.stringify(run.config), sweepName: null, project: { id: "UHJvamVjdDox", name: run.project, entity: { id: "RW50aXR5OjE=", name: entity } } }, inserted } } });
    }
    if (/query RunUploadUrls/.test(query)) {
      const edges = (v.files as string[]).map((name) => ({ node: { name, url: `${base}/upload/${v.entity}/${v.name}/${v.run}/${name}`, updatedAt: null } }));
      return c.json({ data: { model: { bucket: { id: "b", files: { uploadHeaders: [], edges } } } } });
    }
    return c.json({ errors: [{ message: `the fake does not know this query: ${String(query).slice(0, 40)}` }] }, 400);
  });
  app.put("/upload/:entity/:project/:run/:file", async (c) => {
    const run = find(c.req.param("entity"), c.req.param("project"), c.req.param("run"));
    if (!run) return c.text("no such run", 404);
    run.files[c.req.param("file")] = await c.req.text();
    return c.body(null, 200);
  });
  app.post("/files/:entity/:project/:run/file_stream", async (c) => {
    const run = find(c.req.param("entity"), c.req.param("project"), c.req.param("run"));
    if (!run) return c.json({ error: "no such run" }, 404);
    const body = await c.req.json();
    for (const line of body.files?.["wandb-history.jsonl"]?.content ?? []) run.history.push(JSON.parse(line));
    if (body.complete) {
      run.complete = true;
      run.exitcode = body.exitcode;
    }
    return c.json({ exitcode: null, limits: {} });
  });
  const served = await serve((request) => app.fetch(request));
  base = served.url;
  return Object.assign(served, { runs, options });
}

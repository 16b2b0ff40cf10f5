/** For local vLLM tests: PATH with the `vllm` stand-in (fixtures/models/bin/vllm, see its README) first, and a conformance subject over it. */
import { dirname, join } from "node:path";
import type { Hono } from "hono";
import type { ModelSubject } from "../components/responses_api_models/conformance.case.ts";
import type { SeenCall } from "./model-stand-in.ts";
import { repoRoot } from "./binary.ts";

export const standInBin = join(repoRoot, "fixtures", "models", "bin");

/** PATH with the stand-in first and this runtime's folder (the stand-in runs under `bun`), then `rest`. */
export function pathWithStandIn(rest = process.env.PATH ?? ""): string {
  return [standInBin, dirname(process.execPath), rest].filter(Boolean).join(":");
}

/** PATH without any `vllm`: only this runtime's folder and the system's. */
export function pathWithoutVllm(): string {
  return [dirname(process.execPath), "/usr/bin", "/bin"].join(":");
}

/** Runs `fn` with PATH (and other variables) set, restoring them afterwards. */
export async function withEnv<T>(env: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(env)) v === undefined ? delete process.env[k] : (process.env[k] = v);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) v === undefined ? delete process.env[k] : (process.env[k] = v);
  }
}

/** A conformance subject over an app whose upstream is a stand-in vLLM at `baseUrl` (`…/v1`), steered through its test controls. */
export function standInSubject(app: Hono<any>, model: string, baseUrl: string, close: () => Promise<void>): ModelSubject {
  const root = baseUrl.replace(/\/v1$/, "");
  return {
    app,
    model,
    seen: async () => ((await (await fetch(`${root}/_stand_in/seen`)).json()) as SeenCall[]).filter((c) => c.method === "POST"),
    failNext: async (status, body) => void (await fetch(`${root}/_stand_in/fail_next`, { method: "POST", body: JSON.stringify({ status, body }) })),
    close,
  };
}

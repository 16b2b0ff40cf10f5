/** Before a run dispatches anything: wait (bounded) for the model endpoints to answer, so a wrong URL fails in seconds, not per rollout. */
import { GymError } from "../errors.ts";
import { probeModelEndpointsDetailed } from "../servers/launch-report.ts";
import type { ServerInstance } from "../servers/instances.ts";

/**
 * Probes every model server's `*base_url` until all answer or `timeoutS` passes (NeMo Gym's
 * `model_endpoint_readiness_timeout_seconds`; 0 checks once). A refused connection (nothing listens at a
 * fixed address: a wrong port or host) fails at once unless `waitWhenRefused` (the user set the timeout
 * explicitly for a server that binds late); an endpoint that answers 503 ("starting") or times out is waited
 * for. Logs what it waits for every ~10 s.
 */
export async function waitForModelEndpoints(instances: ServerInstance[], timeoutS: number, log: (m: string) => void, signal?: AbortSignal, waitWhenRefused = false): Promise<void> {
  const deadline = performance.now() + timeoutS * 1000;
  let lastLog = Number.NEGATIVE_INFINITY;
  for (;;) {
    const problems = await probeModelEndpointsDetailed(instances, 3000);
    if (problems.length === 0) return;
    const left = (deadline - performance.now()) / 1000;
    const refused = !waitWhenRefused && problems.some((p) => p.refused);
    if (left <= 0 || signal?.aborted || refused) {
      throw new GymError("E_SERVER", `The model endpoint is not reachable: ${problems.map((p) => p.message).join(" ")}`, {
        hint: refused
          ? "Check --model-url (host and port) and that the server is running. For a server that is still starting and binds its port late, set +model_endpoint_readiness_timeout_seconds=N to wait for it."
          : "Check --model-url (and that the server is running). To wait longer for a server that is still starting, set +model_endpoint_readiness_timeout_seconds=N.",
      });
    }
    if (performance.now() - lastLog > 10_000) {
      log(`Waiting for the model endpoint (${Math.ceil(left)} s left; +model_endpoint_readiness_timeout_seconds=0 fails at once): ${problems[0]!.message}`);
      lastLog = performance.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

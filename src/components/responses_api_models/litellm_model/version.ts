/** The LiteLLM proxy's version check before serving: NeMo Gym refuses proxies older than 1.83.0 and the two compromised releases. */
import { GymError } from "../../../errors.ts";
import { fetchText } from "../../../servers/fetch-text.ts";

const COMPROMISED = new Set(["1.82.7", "1.82.8"]);
const MIN_SAFE = [1, 83, 0] as const;
const VERSION = /^v?(\d+)\.(\d+)\.(\d+)(.*)$/;
const ALLOWED_SUFFIX = /^(?:|-stable(?:\.patch\.\d+)?|\.post\d+)$/;

/** `1.83.0`, `v1.83.0-stable`, `1.83.0-stable.patch.2`, `1.83.0.post1` → [1, 83, 0]; anything else is refused. */
export function parseLiteLLMVersion(version: string): [number, number, number] {
  const match = VERSION.exec(version.trim());
  if (!match) throw new Error(`Unsupported LiteLLM version format: '${version}'`);
  if (!ALLOWED_SUFFIX.test(match[4]!)) throw new Error(`Unsupported LiteLLM version suffix: '${match[4]}'`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** Why a reported version is refused, or undefined when it is safe. */
export function versionProblem(version: string): string | undefined {
  if (!version) return `did not report litellm_version, so the minimum safe version ${MIN_SAFE.join(".")} cannot be enforced`;
  let parts: [number, number, number];
  try {
    parts = parseLiteLLMVersion(version);
  } catch {
    return `reported an unsupported version ('${version}'), so the minimum safe version ${MIN_SAFE.join(".")} cannot be enforced`;
  }
  if (COMPROMISED.has(parts.join("."))) {
    return `is running a compromised version (${version}): 1.82.7 and 1.82.8 contain credential-harvesting malware (LiteLLM supply chain incident, March 2026)`;
  }
  for (let i = 0; i < 3; i++) {
    if (parts[i]! > MIN_SAFE[i]!) return undefined;
    if (parts[i]! < MIN_SAFE[i]!) return `runs version ${version}, below the minimum safe version ${MIN_SAFE.join(".")}`;
  }
  return undefined;
}

/** GETs `<proxy>/health/readiness/details` (the key as bearer and as `x-litellm-key`) and refuses an unsafe proxy with a GymError. */
export async function checkLiteLLMProxy(openaiBaseUrl: string, apiKey: string, timeoutMs = 5000): Promise<string> {
  const healthUrl = `${openaiBaseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}/health/readiness/details`;
  const bearer = /^bearer /i.test(apiKey) ? apiKey : `Bearer ${apiKey}`;
  const rawKey = bearer.slice("Bearer ".length).trim();
  let version = "";
  try {
    const reply = await fetchText(healthUrl, { method: "GET", headers: { authorization: bearer, "x-litellm-key": rawKey }, timeoutMs });
    if (reply.status < 200 || reply.status >= 300) throw new Error(`status=${reply.status}`);
    version = String((JSON.parse(reply.text) as { litellm_version?: unknown }).litellm_version ?? "");
  } catch (error) {
    throw new GymError("E_SERVER", `Could not verify the LiteLLM proxy version at ${healthUrl}: ${(error as Error).message}`, {
      hint: "Check openai_base_url (the proxy's /v1 URL) and openai_api_key; the proxy must answer GET /health/readiness/details.",
    });
  }
  const problem = versionProblem(version);
  if (problem) throw new GymError("E_SERVER", `The LiteLLM proxy at ${healthUrl} ${problem}.`, { hint: `Upgrade the proxy to LiteLLM >= ${MIN_SAFE.join(".")} before using it.` });
  return version;
}

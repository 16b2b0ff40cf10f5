/** Masking secrets before a config is printed (`gym env resolve`, almost-server dumps, exporters). */
import { isMapping, type ConfigMap, type ConfigValue } from "./_tree.ts";

/** What a masked value prints as (exporters treat it as "not configured"). */
export const MASK = "****";

// The last word of a key decides. NeMo Gym 0.5.x masks every key containing "token" or "key", which hides
// max_output_tokens, max_tokens, key_metrics and return_token_id_information, and misses password or
// Authorization. We fix that on purpose: a key is secret when its last word names a credential.
const SECRET_LAST_WORDS = new Set([
  "key", "keys", "apikey", "token", "secret", "secrets", "password", "passwords", "passwd", "pwd",
  "authorization", "credential", "credentials", "cookie", "passphrase",
]);

/** Words of a key: `wandb_api_key` → [wandb, api, key]; `X-Api-Key` → [x, api, key]; `apiKey` → [api, key]. */
function words(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Whether a key names a secret (api keys, tokens, passwords, authorization headers, secrets). */
export function isSecretKey(key: string): boolean {
  const parts = words(key);
  return parts.length > 0 && SECRET_LAST_WORDS.has(parts[parts.length - 1]!);
}

/** An environment variable pulled in through `${oc.env:VAR}` whose name says it is a secret. */
function readsSecretEnv(value: ConfigValue): boolean {
  if (typeof value !== "string") return false;
  for (const m of value.matchAll(/\$\{oc\.env:\s*([A-Za-z_][A-Za-z0-9_]*)/g)) if (isSecretKey(m[1]!)) return true;
  return false;
}

/**
 * Returns a copy with every secret value replaced by `****` (a list value becomes a list of `****` of the same
 * length). Mappings are walked whatever their key, and so are mappings inside lists. Runs on the unresolved tree,
 * so a value interpolating a masked key prints masked too; a value read from a secret-named environment variable
 * (`${oc.env:OPENAI_API_KEY}`) is masked whatever its own key is called.
 */
export function maskSecrets<T extends ConfigValue>(tree: T): T {
  if (Array.isArray(tree)) return tree.map((item) => (isMapping(item) || Array.isArray(item) ? maskSecrets(item) : readsSecretEnv(item) ? MASK : item)) as T;
  if (!isMapping(tree)) return tree;
  const out: ConfigMap = {};
  for (const [key, value] of Object.entries(tree)) {
    if (isMapping(value)) out[key] = maskSecrets(value);
    else if (Array.isArray(value)) out[key] = isSecretKey(key) ? value.map(() => MASK) : maskSecrets(value);
    else if (value !== null && (isSecretKey(key) || readsSecretEnv(value))) out[key] = MASK;
    else out[key] = typeof value === "string" && value.includes("@") ? maskUrlUserinfo(value) : value;
  }
  return out as T;
}

/** `https://user:pass@host` → `https://user:****@host`; a lone userinfo (`https://token@host`) → `https://****@host`. */
export function maskUrlUserinfo(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@"']*)@/gi, (_, scheme: string, info: string) => {
    const colon = info.indexOf(":");
    return `${scheme}${colon >= 0 ? `${info.slice(0, colon)}:${MASK}` : MASK}@`;
  });
}

// Credentials that an upstream error body may echo back: header lines, JSON members, bearer tokens, key-shaped words.
const SECRET_TEXT: [RegExp, string][] = [
  [/(\b(?:proxy-)?authorization\b["']?\s*[:=]\s*["']?)((?:Bearer|Basic|Token)\s+)?[^\s"',}]+/gi, `$1$2${MASK}`],
  [/(["']?\b[\w-]*(?:api[_-]?key|access[_-]?token|secret|password|passwd)\b["']?\s*[:=]\s*["']?)[^\s"',}&]+/gi, `$1${MASK}`],
  [/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g, `Bearer ${MASK}`],
  [/\b(?:sk|pk|rk)-[A-Za-z0-9_-]{12,}\b/g, MASK],
  [/\bhf_[A-Za-z0-9]{16,}\b/g, MASK],
];

/** Masks what looks like a credential in free text (an upstream error body, a message): headers, keys, URL passwords. */
export function maskSecretText(text: string): string {
  let out = maskUrlUserinfo(text);
  for (const [pattern, replacement] of SECRET_TEXT) out = out.replace(pattern, replacement);
  return out;
}

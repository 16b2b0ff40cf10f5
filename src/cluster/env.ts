/** Environment values of services and the driver: `lit:` text, `host:VAR` from the submitting shell, `runtime:VAR` read in the job. */
import { GymError } from "../errors.ts";

const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

export type EnvValue = { kind: "lit"; text: string } | { kind: "host"; name: string } | { kind: "runtime"; name: string };

/** Parses one value; `where` is its key path in the submit YAML (for the error). */
export function parseEnvValue(value: string, where: string, file: string): EnvValue {
  const m = /^(lit|host|runtime):([\s\S]*)$/.exec(value);
  if (!m) {
    throw new GymError("E_CONFIG", `${file}: ${where}: '${value}' has no lit:, host: or runtime: prefix.`, {
      hint: `Write lit:${value} for the text itself, host:VAR to copy VAR from this shell at submit time, or runtime:VAR to read VAR in the job.`,
    });
  }
  const [, kind, rest] = m as unknown as [string, EnvValue["kind"], string];
  if (kind === "lit") return { kind, text: rest };
  if (!ENV_KEY.test(rest)) throw new GymError("E_CONFIG", `${file}: ${where}: '${rest}' is not a variable name.`, { hint: "Variable names match [A-Za-z_][A-Za-z0-9_]*." });
  return { kind, name: rest };
}

/** Checks every key and value of one env mapping; returns the host variables it needs. */
export function checkEnv(env: Record<string, string>, where: string, file: string, shell: NodeJS.ProcessEnv): void {
  for (const [key, value] of Object.entries(env)) {
    if (!ENV_KEY.test(key)) {
      throw new GymError("E_CONFIG", `${file}: ${where}.${key}: '${key}' is not a valid environment variable name.`, { hint: "Names match [A-Za-z_][A-Za-z0-9_]*; rename the key." });
    }
    const parsed = parseEnvValue(value, `${where}.${key}`, file);
    if (parsed.kind === "host" && shell[parsed.name] === undefined) {
      throw new GymError("E_CONFIG", `${file}: ${where}.${key}: host:${parsed.name} is not set in this shell.`, {
        hint: `export ${parsed.name}=… before gym eval submit (its value goes only into the owner-only job.sh), or use runtime:${parsed.name} to read it on the cluster.`,
      });
    }
  }
}

/** `env K=V …` for one command (trailing space), or "" when empty. Host values are resolved here: only job.sh holds them. */
export function envPrefix(env: Record<string, string>, shell: NodeJS.ProcessEnv, quote: (s: string) => string): string {
  const pairs = Object.entries(env).map(([key, value]) => {
    const parsed = parseEnvValue(value, key, "submit config");
    if (parsed.kind === "lit") return `${key}=${quote(parsed.text)}`;
    if (parsed.kind === "host") return `${key}=${quote(shell[parsed.name] ?? "")}`;
    return `${key}="\${${parsed.name}}"`;
  });
  return pairs.length ? `env ${pairs.join(" ")} ` : "";
}

/** The host values that must never appear anywhere but job.sh (for the staging check). */
export function hostSecrets(envs: Record<string, string>[], shell: NodeJS.ProcessEnv): string[] {
  const values: string[] = [];
  for (const env of envs) {
    for (const value of Object.values(env)) {
      const m = /^host:(.+)$/.exec(value);
      const secret = m ? shell[m[1]!] : undefined;
      if (secret) values.push(secret);
    }
  }
  return values;
}

/** Shell text for job scripts: quoting, NeMo Gym's flattening of run/prepare mappings into `+a.b=v` tokens, bash names. */

/** Quotes one word for bash (single quotes unless it is plainly safe). */
export function shq(word: string): string {
  return /^[A-Za-z0-9_\/.,:=+@%^-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A value as an override's right-hand side: scalars as text, lists as [a,b], mappings in YAML flow style. */
function overrideText(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `[${value.map(overrideText).join(",")}]`;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Nested keys become `+a.b=v`, lists `+k=[a,b]` (NeMo Gym's flatten_run_args), each shell-quoted. */
export function flattenOverrides(tree: Record<string, unknown>, prefix = ""): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) out.push(...flattenOverrides(value as Record<string, unknown>, full));
    else out.push(shq(`+${full}=${overrideText(value)}`));
  }
  return out;
}

/** A service name as a bash variable stem (`my-policy` → `MY_POLICY`). */
export function bashVar(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]/g, "_");
}

/** Slurm time (`MM`, `MM:SS`, `HH:MM:SS`, `D-HH[:MM[:SS]]`) in seconds. */
export function slurmSeconds(time: string): number {
  const m = /^(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?$/.exec(time);
  if (!m) return NaN;
  const [, d, a, b, c] = m;
  const days = Number(d ?? 0);
  const parts = [a, b, c].filter((p) => p !== undefined).map(Number);
  if (d !== undefined) {
    const [h = 0, mi = 0, s = 0] = parts;
    return ((days * 24 + h) * 60 + mi) * 60 + s;
  }
  if (parts.length === 1) return parts[0]! * 60;
  if (parts.length === 2) return parts[0]! * 60 + parts[1]!;
  return (parts[0]! * 60 + parts[1]!) * 60 + parts[2]!;
}

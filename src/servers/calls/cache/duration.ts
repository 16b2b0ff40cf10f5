/** Durations as users type them for `--cache-expiry` and `--older-than`: 90s, 30m, 12h, 7d, 2w (a bare number is seconds). */
import { GymError } from "../../../errors.ts";

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Milliseconds of a duration like `7d`; `flag` names the option in the error a bad value raises. */
export function parseDuration(text: string, flag: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([smhdw]?)\s*$/i.exec(text);
  const ms = match ? Number(match[1]) * UNIT_MS[(match[2] || "s").toLowerCase()]! : NaN;
  if (!(ms > 0)) {
    throw new GymError("E_BAD_FLAG_VALUE", `${flag} expects a duration such as 7d, 12h, 30m or 90s, got '${text}'.`, {
      hint: `For example ${flag} 7d (units: s, m, h, d, w).`,
    });
  }
  return ms;
}

/** The default lifetime of a cached response: one week (Inspect's default). */
export const DEFAULT_EXPIRY = "7d";

/** `gym env validate` without a workload name: the offline config check and its report. */
import { GymError, isGymError } from "../errors.ts";
import { noModelSeed } from "./_steps.ts";
import { resolveConfig, type ResolveConfigOptions, type ResolvedConfig } from "./resolve.ts";

export interface ValidationReport {
  valid: boolean;
  strict: boolean;
  config_paths: string[];
  files: string[];
  server_instances: { name: string; server_type: string; implementation: string; datasets: number }[];
  /** Values a run needs that the config leaves undefined (filled with placeholders for the check). */
  placeholders: string[];
  warnings: string[];
  error?: { code: string; message: string; hint?: string };
}

/** The one warning that lists every value filled with a placeholder. */
export function placeholdersWarning(names: string[]): string {
  return `${names.length} value(s) a run needs are not defined, so they were filled with placeholders for this check: ${names.join(", ")}. Set them with --model / --model-url / --model-api-key, ++key=value, or env.yaml; --strict fails on them.`;
}

function describe(config: ResolvedConfig): string[] {
  return config.placeholders.map((p) => (p.kind === "env" ? `$${p.name}` : p.name));
}

/**
 * Checks a config offline: structure, server instance shapes, references, datasets, `???`. Without `strict`,
 * a placeholder model instance stands in for `policy_model` and undefined values are filled with placeholders
 * (listed in one warning). With `strict`, nothing is stood in: every undefined value is an error.
 * Throws nothing for config problems: they come back as `valid: false` with the GymError in `error`.
 */
export async function validateConfig(options: ResolveConfigOptions & { strict?: boolean }): Promise<{ report: ValidationReport; config?: ResolvedConfig; error?: GymError }> {
  const strict = options.strict ?? false;
  const report: ValidationReport = { valid: false, strict, config_paths: [], files: [], server_instances: [], placeholders: [], warnings: [] };
  try {
    const config = await resolveConfig({
      ...options,
      mode: "offline",
      placeholders: true,
      seed: { ...(strict ? {} : noModelSeed(false)), ...(options.seed ?? {}) },
    });
    report.config_paths = config.configPaths;
    report.files = config.files;
    report.server_instances = config.serverInstances.map((i) => ({
      name: i.name,
      server_type: i.serverType,
      implementation: i.implementation,
      datasets: Array.isArray(i.block.datasets) ? i.block.datasets.length : 0,
    }));
    report.placeholders = describe(config);
    report.warnings = [...config.warnings];
    if (report.placeholders.length > 0) {
      if (strict) {
        throw new GymError("E_CONFIG_INTERPOLATION", `--strict: ${report.placeholders.length} value(s) a run needs are not defined: ${report.placeholders.join(", ")}.`, {
          hint: "Set them with --model / --model-url / --model-api-key, ++key=value, or env.yaml (environment variables: export them).",
        });
      }
      report.warnings.push(placeholdersWarning(report.placeholders));
    }
    report.valid = true;
    return { report, config };
  } catch (error) {
    if (!isGymError(error)) throw error;
    report.error = { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
    return { report, error };
  }
}

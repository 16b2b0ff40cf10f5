/** A user's TypeScript module that fails to compile, throws at import, or exports the wrong shape: said with file, line and column. */
import { GymError } from "../errors.ts";

interface BuildPosition {
  file?: string;
  line?: number;
  column?: number;
  lineText?: string;
}

/** The messages of a Bun build failure (one BuildMessage, or an AggregateError of them). */
function buildMessages(error: unknown): { message: string; position?: BuildPosition }[] | undefined {
  const e = error as { name?: string; errors?: unknown[]; position?: BuildPosition; message?: string };
  const list = e?.name === "BuildMessage" || e?.position ? [e] : Array.isArray(e?.errors) && e.errors.some((x) => (x as { position?: unknown })?.position) ? e.errors : undefined;
  return list?.map((x) => ({ message: String((x as { message?: string }).message ?? x), position: (x as { position?: BuildPosition }).position ?? undefined }));
}

/** Turns a failed `import()` of `file` into a GymError a person can act on. */
export function userModuleError(file: string, error: unknown): GymError {
  const messages = buildMessages(error);
  if (messages?.length) {
    const shown = messages.slice(0, 5).map(({ message, position: p }) => {
      if (!p?.line) return `${file}: ${message}`;
      const where = `${p.file ?? file}:${p.line}:${(p.column ?? 0) + 1}`;
      const caret = p.lineText !== undefined ? `\n    ${p.lineText}\n    ${" ".repeat(p.column ?? 0)}^` : "";
      return `${where}: ${message}${caret}`;
    });
    const more = messages.length > 5 ? `\n(and ${messages.length - 5} more)` : "";
    return new GymError("E_USER_MODULE", `Your server does not compile: ${messages.length} error(s)\n${shown.join("\n")}${more}`, { hint: "Fix the line shown; `bun build --no-bundle FILE` (or any TypeScript editor) shows the same error.", cause: error });
  }
  const e = error instanceof Error ? error : new Error(String(error));
  const frame = (e.stack ?? "").split("\n").find((line) => line.includes(file));
  const at = frame ? ` (${frame.trim().replace(/^at\s+/, "")})` : "";
  return new GymError("E_USER_MODULE", `Loading ${file} failed: ${e.name}: ${e.message}${at}`, { hint: "The module threw while it was imported: fix the code that runs at its top level.", cause: error });
}

/** Checks that a server module's default export is a server factory (`defineResourcesServer(…)` or a function). */
export function checkServerExport(file: string, module: Record<string, unknown>): void {
  const value = module.default;
  if (typeof value === "function") return;
  const got = value === undefined ? "no default export" : `a default export of type ${value === null ? "null" : Array.isArray(value) ? "array" : typeof value}`;
  throw new GymError("E_USER_MODULE", `${file} must \`export default defineResourcesServer({ … })\` (or a factory function), but it has ${got}.`, {
    hint: "See `gym env init --resources-server NAME` for the shape of a server module.",
  });
}

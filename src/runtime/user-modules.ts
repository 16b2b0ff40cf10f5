/** Loading a user's TypeScript module at run time (a scaffolded resources server), with gym's SDK as a bare import. */
import { pathToFileURL } from "node:url";

declare const Bun: { plugin(plugin: { name: string; setup(build: { module(specifier: string, load: () => { exports: Record<string, unknown>; loader: "object" }): void }): void }): void } | undefined;

const registered = new Set<string>();

/**
 * Makes `import … from "<specifier>"` resolve to `exports` in modules loaded afterwards — in a source run and
 * inside the compiled binary alike (Bun's runtime plugin API). Elsewhere (Deno) user modules must import the SDK
 * by a relative path, which scaffolds written from a source checkout do.
 */
export function provideModule(specifier: string, exports: Record<string, unknown>): void {
  if (registered.has(specifier) || typeof Bun === "undefined") return;
  registered.add(specifier);
  Bun.plugin({ name: `gym:${specifier}`, setup: (build) => build.module(specifier, () => ({ exports, loader: "object" })) });
}

/** Imports a module by file path (TypeScript is transpiled by the runtime). */
export function importFile<T>(path: string): Promise<T> {
  return import(pathToFileURL(path).href) as Promise<T>;
}

/** The store the `gym cache` commands work on, or a clear error when there is none. */
import { GymError } from "../../errors.ts";

/** Opens `<cache root>/responses.sqlite`; `missingOk` gives undefined instead of an error when it does not exist. */
export async function openCacheStore(missingOk: boolean) {
  const { existsSync } = await import("node:fs");
  const { ResponseStore, responseStorePath } = await import("../../servers/calls/cache/index.ts");
  const path = responseStorePath();
  if (!existsSync(path)) {
    if (missingOk) return { path, store: undefined };
    throw new GymError("E_INPUT_NOT_FOUND", `No response cache at ${path}.`, { hint: "It is made by the first `gym eval run --cache` (the folder is NEMO_GYM_CACHE_DIR, else $XDG_CACHE_HOME/gym, else ~/.cache/gym)." });
  }
  let problem = "";
  const store = await ResponseStore.open(path, (m) => (problem = m));
  if (!store) throw new GymError("E_IO", `The response cache at ${path} cannot be read: ${problem}`, { hint: `Remove ${path} (and its -wal and -shm files), or run \`gym cache clear --yes\`.` });
  return { path, store };
}

/** Bytes for people: 1.2 MB. */
export function formatBytes(bytes: number): string {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

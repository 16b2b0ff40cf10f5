/** Finding a program to run: the first executable of that name on PATH (and, when asked, the usual system folders). */
import { accessSync, constants } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

const SYSTEM_DIRS = ["/usr/bin", "/bin", "/usr/sbin", "/sbin"];

/**
 * The path of the executable `name` (an absolute name is checked as it is), or null. `systemDirs` also looks
 * in /usr/bin, /bin, /usr/sbin and /sbin after PATH, for tools a trimmed PATH may leave out (bwrap, setpriv).
 */
export function findExecutable(name: string, options: { path?: string; systemDirs?: boolean } = {}): string | null {
  if (isAbsolute(name)) return isExecutable(name) ? name : null;
  const dirs = [...(options.path ?? process.env.PATH ?? "").split(delimiter), ...(options.systemDirs ? SYSTEM_DIRS : [])];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

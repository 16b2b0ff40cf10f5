/** Which file each key came from, so errors can name the file behind a key path. */
import { formatPath, isMapping, MISSING, type ConfigPath, type ConfigValue } from "./_tree.ts";

export class Origins {
  private readonly byPath = new Map<string, string>();

  /** Records that `layer` (named `label`) set every key it holds; later layers win, a `???` sets nothing. */
  record(layer: ConfigValue, label: string, path: ConfigPath = []): void {
    if (layer === MISSING) return;
    if (path.length > 0) this.byPath.set(formatPath(path), label);
    if (isMapping(layer)) for (const [key, value] of Object.entries(layer)) this.record(value, label, [...path, key]);
    else if (Array.isArray(layer)) layer.forEach((value, i) => this.record(value, label, [...path, i]));
  }

  /** Gives the keys under `to` the files recorded under `from` (a subtree moved to a new key path). */
  copy(from: ConfigPath, to: ConfigPath): void {
    const prefix = formatPath(from);
    const target = formatPath(to);
    for (const [key, label] of [...this.byPath]) {
      if (key === prefix || key.startsWith(`${prefix}.`) || key.startsWith(`${prefix}[`)) this.byPath.set(`${target}${key.slice(prefix.length)}`, label);
    }
  }

  /** The file that set `path`, or the nearest ancestor that has one. */
  of = (path: ConfigPath): string | undefined => {
    for (let i = path.length; i > 0; i--) {
      const label = this.byPath.get(formatPath(path.slice(0, i)));
      if (label) return label;
    }
    return undefined;
  };
}

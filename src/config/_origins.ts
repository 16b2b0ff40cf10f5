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

  /** The file that set `path`, or the nearest ancestor that has one. */
  of = (path: ConfigPath): string | undefined => {
    for (let i = path.length; i > 0; i--) {
      const label = this.byPath.get(formatPath(path.slice(0, i)));
      if (label) return label;
    }
    return undefined;
  };
}

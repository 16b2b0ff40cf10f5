/**
 * A full garbage collection at a phase boundary of a big-file stage (after the parse, before the next big
 * arrays): the engine otherwise lets the previous phase's garbage stand beside them, which sets the peak.
 * Bun only (`Bun.gc`); elsewhere a no-op.
 */
export function collectGarbage(): void {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  bun?.gc(true);
}

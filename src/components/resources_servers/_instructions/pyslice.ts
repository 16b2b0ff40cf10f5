/** Python's `s[start:stop]` on code points (negative indices count from the end, out-of-range clamps). */
export function pySlice(s: string, start: number, stop: number): string {
  const cps = Array.from(s);
  const n = cps.length;
  const norm = (i: number) => (i < 0 ? Math.max(0, n + i) : Math.min(i, n));
  const a = norm(start);
  const b = norm(stop);
  return a < b ? cps.slice(a, b).join("") : "";
}

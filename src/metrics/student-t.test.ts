import { expect, test } from "bun:test";
import { incompleteBeta, studentTCdf, studentTQuantile } from "./student-t.ts";

// Reference quantiles: scipy.stats.t.ppf (the values metrics.md §7 quotes) and standard tables.
const KNOWN: Array<[number, number, number]> = [
  [0.975, 1, 12.706204736174707],
  [0.975, 2, 4.302652729749464],
  [0.975, 3, 3.1824463052837078],
  [0.975, 4, 2.7764451051977934],
  [0.975, 10, 2.228138851986274],
  [0.95, 6.302353651176825, 1.9266117738660626],
  [0.975, 6.302353651176825, 2.4187359653218197],
  [0.95, 7.496977837474815, 1.8758527998141665],
  [0.975, 7.496977837474815, 2.333215808105785],
  [0.995, 30, 2.749995653567],
  [0.8, 5, 0.919543780250],
];

test("t quantiles for integer and fractional degrees of freedom", () => {
  for (const [p, df, want] of KNOWN) {
    const got = studentTQuantile(p, df);
    expect(Math.abs(got - want) / want).toBeLessThan(1e-11);
    expect(Math.abs(studentTQuantile(1 - p, df) + got)).toBeLessThan(1e-12 * want);
  }
});

test("large df tends to the normal quantile; CDF inverts the quantile", () => {
  expect(Math.abs(studentTQuantile(0.975, 1e7) - 1.959963984540054)).toBeLessThan(1e-6);
  for (const df of [1.5, 3, 17.25, 200]) for (const p of [0.6, 0.9, 0.999]) expect(Math.abs(studentTCdf(studentTQuantile(p, df), df) - p)).toBeLessThan(1e-14);
});

test("incomplete beta closed forms", () => {
  expect(Math.abs(incompleteBeta(0.3, 1, 1) - 0.3)).toBeLessThan(1e-15);
  expect(Math.abs(incompleteBeta(0.25, 2, 1) - 0.0625)).toBeLessThan(1e-15);
  expect(Math.abs(incompleteBeta(0.5, 0.5, 0.5) - 0.5)).toBeLessThan(1e-14);
});

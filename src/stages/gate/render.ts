/** The gate's report as text (the terminal), JUnit XML (CI test tabs) and Markdown (GitHub's step summary). */
import type { GateReport } from "./checks.ts";

const mark = (passed: boolean) => (passed ? "PASS" : "FAIL");

export function gateText(report: GateReport, run: string): string {
  const lines = [`gym eval gate ${run}: ${report.passed ? "passed" : `FAILED (${report.failed} of ${report.checks.length} checks)`}`];
  for (const c of report.checks) lines.push(`  ${mark(c.passed)}  ${c.name}: ${c.message}`);
  return `${lines.join("\n")}\n`;
}

const xml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

/** One testsuite, one testcase per check; a failed check is a `<failure>` with its message. */
export function gateJunit(report: GateReport, run: string): string {
  const cases = report.checks.map((c) => {
    const open = `    <testcase classname="gym.eval.gate" name="${xml(c.name)}" time="0">`;
    return c.passed ? `${open}\n      <system-out>${xml(c.message)}</system-out>\n    </testcase>` : `${open}\n      <failure message="${xml(c.message)}" type="threshold">${xml(c.message)}</failure>\n    </testcase>`;
  });
  const suite = `  <testsuite name="gym eval gate ${xml(run)}" tests="${report.checks.length}" failures="${report.failed}" errors="0" skipped="0">`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites tests="${report.checks.length}" failures="${report.failed}">\n${suite}\n${cases.join("\n")}\n  </testsuite>\n</testsuites>\n`;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** The Markdown appended to `$GITHUB_STEP_SUMMARY`: a verdict line and a table of checks. */
export function gateMarkdown(report: GateReport, run: string): string {
  const rows = report.checks.map((c) => `| ${c.passed ? "✅" : "❌"} | ${cell(c.name)} | ${cell(c.message)} |`);
  return `### gym eval gate: ${report.passed ? "✅ passed" : `❌ failed (${report.failed} of ${report.checks.length} checks)`}\n\nRun: \`${run}\`\n\n| | check | result |\n|---|---|---|\n${rows.join("\n")}\n\n`;
}

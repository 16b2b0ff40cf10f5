/**
 * `gym view` in a real browser: Debian's chromium driven by playwright-core, against the compiled binary (or the
 * sources when no binary is built). Screenshots of every screen go to $GYM_VIEW_SCREENSHOTS (default: a temp folder).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";

const CHROMIUM = process.env.GYM_CHROMIUM ?? "/usr/bin/chromium";
const hasChromium = fs.existsSync(CHROMIUM);
if (!hasChromium) console.warn(`NOTICE: ${CHROMIUM} is missing, so gym view's browser tests are SKIPPED (apt-get install chromium, or scripts/ci/up-chromium.sh).`);

const root = join(import.meta.dir, "..", "..");
const fixtures = join(root, "fixtures", "view");
const binary = join(root, "dist", "gym");
const work = fs.mkdtempSync(join(tmpdir(), "gym-view-browser-"));
const shots = process.env.GYM_VIEW_SCREENSHOTS ?? join(work, "screenshots");
fs.mkdirSync(shots, { recursive: true });

const gymCommand = (args: string[]) => (fs.existsSync(binary) ? [binary, ...args] : ["bun", join(root, "src", "main.ts"), ...args]);
const env = { ...process.env, GYM_CACHE_DIR: join(work, "cache"), NO_COLOR: "1" };

/** Starts `gym view ARGS --port 0` and resolves with its URL once it prints it. */
async function startView(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const [cmd, ...rest] = gymCommand(["view", ...args, "--port", "0"]);
  const child = spawn(cmd!, rest, { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr!.on("data", (d) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /Viewing (\d+) run\(s\) at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) resolve(m[2]!);
    });
    child.on("exit", (code) => reject(new Error(`gym view exited ${code}: ${out}${err}`)));
  });
  return { url, child };
}

describe.skipIf(!hasChromium)("gym view in chromium", () => {
  let browser: Browser;
  let server: { url: string; child: ChildProcess };
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    server = await startView([fixtures]);
    children.push(server.child);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    for (const child of children) child.kill("SIGINT");
    fs.rmSync(work, { recursive: true, force: true });
  }, 60_000);

  /** A fresh page that fails the test on any script error and counts dialogs (an alert from a payload). */
  async function open(url: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    // A Content-Security-Policy refusal or a failed request shows up as a console error.
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console: ${m.text()}`);
    });
    page.on("dialog", (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    await page.goto(url);
    return { page, problems };
  }
  const shot = (page: Page, name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

  test("Runs → Samples → Sample, the raw row, and Back", async () => {
    const { page, problems } = await open(server.url);
    await page.getByTestId("run-row").first().waitFor();
    // Three runs and the baseline's failed attempts.
    expect(await page.getByTestId("run-row").count()).toBe(4);
    await shot(page, "runs");
    // Any pair of runs can be compared from here (the compare-link takes the first two).
    await page.locator("select[name=b]").selectOption({ label: (await page.getByTestId("run-row").nth(2).locator("a").first().innerText()) });
    await page.getByRole("button", { name: "compare" }).click();
    await page.waitForURL(/#\/compare\/0\/2$/);
    await page.locator("h2", { hasText: /A: .*baseline.*B: .*xss/ }).waitFor();
    await page.goBack();
    await page.getByTestId("run-row").first().waitFor();
    await page.getByTestId("run-row").first().click();
    await page.getByTestId("sample-row").first().waitFor();
    expect(await page.getByTestId("sample-row").count()).toBe(50);
    await shot(page, "samples");
    await page.getByTestId("sample-row").nth(2).click();
    const transcript = page.getByTestId("transcript");
    await transcript.waitFor();
    const text = (await transcript.textContent()) ?? "";
    expect(text).toContain("Question 0: which option is correct?");
    expect(text).toContain("tool call · lookup");
    expect(text).toContain("lookup result for 0");
    expect(text).toContain("reasoning");
    expect(text).toContain("extracted_answer");
    await shot(page, "sample");
    await page.getByTestId("raw-toggle").click();
    const raw = JSON.parse(await page.getByTestId("raw-row").innerText());
    expect([raw._ng_task_index, raw._ng_rollout_index]).toEqual([0, 2]);
    await page.goBack();
    await page.getByTestId("sample-row").first().waitFor();
    await page.goBack();
    await page.getByTestId("run-row").first().waitFor();
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  test("pagination and filters on the Samples screen", async () => {
    const { page } = await open(`${server.url}#/run/0`);
    await page.getByTestId("sample-row").first().waitFor();
    await page.getByRole("button", { name: "next →" }).click();
    await page.getByText("51–60 of 60").waitFor();
    expect(await page.getByTestId("sample-row").count()).toBe(10);
    const rewards = fs.readFileSync(join(fixtures, "baseline", "rollouts.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l).reward as number);
    await page.locator("input[name=min]").fill("1");
    await page.locator("input[name=min]").dispatchEvent("change");
    await page.getByText(`1–${rewards.filter((r) => r >= 1).length} of ${rewards.filter((r) => r >= 1).length} (filtered from 60)`).waitFor();
    // Each change re-renders the screen: wait for it before the next one.
    await page.locator("input[name=min]").fill("");
    await page.locator("input[name=min]").dispatchEvent("change");
    await page.getByText("1–50 of 60").waitFor();
    await page.locator("select[name=verdict]").selectOption("unhealthy");
    await page.getByText("1–6 of 6 (filtered from 60)").waitFor();
    expect(await page.getByTestId("sample-row").count()).toBe(6);
    await page.locator("select[name=verdict]").selectOption("");
    await page.getByText("1–50 of 60").waitFor();
    await page.locator("input[name=q]").fill("Question 7:");
    await page.locator("input[name=q]").dispatchEvent("change");
    await page.getByText("1–3 of 3 (filtered from 60)").waitFor();
    await shot(page, "samples-filtered");
    await page.goto(`${server.url}#/run/3`);
    await page.getByText("1–3 of 3").waitFor();
    await page.locator("select[name=failure]").selectOption("agent_request_failed");
    await page.getByText("1–2 of 2 (filtered from 3)").waitFor();
    expect(await page.getByTestId("sample-row").first().innerText()).toContain("Cannot connect to host");
    await page.close();
  }, 60_000);

  test("Compare: flips match eval compare's per-task means and flip counts; side by side transcripts; plots", async () => {
    const { page, problems } = await open(server.url);
    await page.getByTestId("compare-link").click();
    await page.getByTestId("flip-row").first().waitFor();
    // The tasks whose mean reward differs, from the aggregate metrics eval compare reads.
    const means = (run: string) => new Map((JSON.parse(fs.readFileSync(join(fixtures, run, "rollouts_aggregate_metrics.json"), "utf8"))[0].group_level_metrics as Array<Record<string, number>>).map((g) => [g._ng_task_index, g["mean/reward"]]));
    const [a, b] = [means("baseline"), means("candidate")];
    const differing = [...a.keys()].filter((t) => b.has(t) && a.get(t) !== b.get(t));
    expect(await page.getByTestId("flip-row").count()).toBe(differing.length);
    const [cmd, ...rest] = gymCommand(["eval", "compare", "--baseline", join(fixtures, "baseline", "rollouts.jsonl"), "--candidates", join(fixtures, "candidate", "rollouts.jsonl"), "--output-dir", join(work, "compare"), "--json"]);
    const report = JSON.parse(spawnSync(cmd!, rest, { env, encoding: "utf8" }).stdout);
    const flips = report.comparisons[0].flips[0];
    await page.getByText(`eval compare: ${flips.fail_to_pass_count} fail→pass, ${flips.pass_to_fail_count} pass→fail`).waitFor();
    expect(await page.getByTestId("transcript").count()).toBe(2);
    expect(await page.getByTestId("plot").count()).toBe(3);
    await shot(page, "compare");
    const second = await page.getByTestId("flip-row").nth(1).locator("td").first().innerText();
    await page.getByTestId("flip-row").nth(1).click();
    await page.getByText(`task ${second}, first rollout of each run`).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  test("Plots of a run", async () => {
    const { page } = await open(`${server.url}#/run/1/plots`);
    await page.getByTestId("plot").first().waitFor();
    expect(await page.getByTestId("plot").count()).toBe(3);
    await shot(page, "plots");
    await page.close();
  }, 60_000);

  test("hostile model output shows as text and never runs", async () => {
    const { page, problems } = await open(`${server.url}#/run/2`);
    await page.getByTestId("sample-row").first().waitFor();
    expect(await page.getByTestId("sample-row").first().innerText()).toContain('<img src=x onerror="window.__xss = 3">');
    await page.getByTestId("sample-row").first().click();
    const transcript = page.getByTestId("transcript");
    await transcript.waitFor();
    const text = (await transcript.textContent()) ?? "";
    expect(text).toContain("<script>window.__xss = 1</script>");
    expect(text).toContain('<img src=x onerror="window.__xss = 2">');
    expect(text).toContain("<iframe src=javascript:window.__xss=6></iframe>");
    expect(text).toContain('<svg onload="window.__xss=5"></svg>');
    await shot(page, "xss");
    // Nothing of the payloads became an element, and nothing ran.
    expect(await page.locator("#app img, #app iframe, #app script, #app svg[onload]").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await page.getByTestId("raw-toggle").click();
    expect(await page.getByTestId("raw-row").innerText()).toContain("window.__xss=4");
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  test("a run still being written refreshes on the Runs screen", async () => {
    const folder = join(work, "live");
    fs.mkdirSync(folder);
    const lines = fs.readFileSync(join(fixtures, "baseline", "rollouts.jsonl"), "utf8").trim().split("\n");
    fs.writeFileSync(join(folder, "rollouts.jsonl"), `${lines.slice(0, 5).join("\n")}\n`);
    const live = await startView([folder]);
    children.push(live.child);
    const { page } = await open(live.url);
    await page.getByTestId("run-row").first().waitFor();
    expect(await page.getByTestId("run-row").first().innerText()).toContain("live");
    fs.appendFileSync(join(folder, "rollouts.jsonl"), `${lines.slice(5, 25).join("\n")}\n`);
    await page.getByTestId("run-row").getByText("25", { exact: true }).waitFor({ timeout: 10_000 });
    await page.close();
  }, 60_000);

  test("gym view bundle opens from file:// with no server", async () => {
    const out = join(work, "bundle");
    const [cmd, ...rest] = gymCommand(["view", "bundle", join(fixtures, "baseline"), join(fixtures, "candidate"), join(fixtures, "xss"), "--output-dir", out]);
    const made = spawnSync(cmd!, rest, { env, encoding: "utf8" });
    expect(made.status).toBe(0);
    expect(made.stdout).toContain("Wrote 3 run(s)");
    const { page, problems } = await open(`file://${out}/index.html`);
    await page.getByTestId("run-row").first().waitFor();
    expect(await page.getByTestId("run-row").count()).toBe(4);
    await page.getByTestId("run-row").first().click();
    await page.getByTestId("sample-row").first().waitFor();
    expect(await page.getByTestId("sample-row").count()).toBe(50);
    await page.getByTestId("sample-row").first().click();
    await page.getByTestId("transcript").waitFor();
    await page.goBack();
    await page.goBack();
    await page.getByTestId("compare-link").click();
    await page.getByTestId("flip-row").first().waitFor();
    await shot(page, "bundle-compare");
    await page.goto(`file://${out}/index.html#/run/2/sample/0`);
    await page.getByTestId("transcript").waitFor();
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});

/** `gym view`'s page: a hash router over the Runs, Samples, Sample, Compare and Plots screens. */
import { h, mount } from "./dom.ts";
import { isBundle } from "./data.ts";
import { compareScreen } from "./screens/compare.ts";
import { plotsScreen } from "./screens/plots.ts";
import { runsScreen } from "./screens/runs.ts";
import { sampleScreen } from "./screens/sample.ts";
import { samplesScreen } from "./screens/samples.ts";

/** What a screen gets: where to draw, the crumbs bar, and whether it is still the screen shown. */
export interface Screen {
  root: HTMLElement;
  crumbs: (...links: Array<[string, string]>) => void;
  status: (text: string) => void;
  current: () => boolean;
}

let generation = 0;

async function route(): Promise<void> {
  const mine = ++generation;
  const root = document.getElementById("app")!;
  const crumbsBar = document.getElementById("crumbs")!;
  const statusBar = document.getElementById("status")!;
  const screen: Screen = {
    root,
    crumbs: (...links) => mount(crumbsBar, links.map(([text, href]) => h("a", { href }, text))),
    status: (text) => void (statusBar.textContent = text),
    current: () => mine === generation,
  };
  const [path, search = ""] = location.hash.replace(/^#/, "").split("?");
  const parts = (path ?? "").split("/").filter(Boolean).map(decodeURIComponent);
  const params = new URLSearchParams(search);
  screen.crumbs();
  screen.status(isBundle() ? "static bundle" : "");
  try {
    if (parts[0] === "run" && parts[2] === "sample") await sampleScreen(screen, parts[1]!, Number(parts[3]));
    else if (parts[0] === "run" && parts[2] === "plots") await plotsScreen(screen, parts[1]!);
    else if (parts[0] === "run") await samplesScreen(screen, parts[1]!, params);
    else if (parts[0] === "compare") await compareScreen(screen, parts[1]!, parts[2]!, Number(params.get("task") ?? NaN));
    else await runsScreen(screen);
  } catch (error) {
    if (screen.current()) mount(root, h("div", { class: "error" }, `Could not load this screen: ${(error as Error).message}`));
  }
}

window.addEventListener("hashchange", () => void route());
void route();

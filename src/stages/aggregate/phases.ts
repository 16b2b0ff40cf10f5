/**
 * Where an analysis stage's time goes, in CPU seconds per phase (user + system), printed to stderr when
 * GYM_DEBUG_PHASES=1. On a shared machine a wall-clock profile counts the time the process waited for a
 * core; these figures do not. Off (no system calls) otherwise.
 */

export class Phases {
  private last: NodeJS.CpuUsage | null;
  private readonly spent: [string, number][] = [];
  private readonly extra = new Map<string, number>();

  constructor(private readonly stage: string) {
    const on = process.env.GYM_DEBUG_PHASES === "1";
    this.last = on ? process.cpuUsage() : null;
    // Everything before the stage began: the engine's and the modules' start-up, argument parsing.
    if (this.last) this.spent.push(["start-up", (this.last.user + this.last.system) / 1e6]);
  }

  get on(): boolean {
    return this.last !== null;
  }

  /** Ends the phase under way, naming it. */
  mark(name: string): void {
    if (!this.last) return;
    const now = process.cpuUsage();
    this.spent.push([name, (now.user - this.last.user + now.system - this.last.system) / 1e6]);
    this.last = now;
  }

  /** Times `work` as a part of the phase under way (e.g. hashing within the parse), reported on its own line too. */
  part<T>(name: string, work: () => T): T {
    if (!this.last) return work();
    const before = process.cpuUsage();
    try {
      return work();
    } finally {
      const after = process.cpuUsage(before);
      this.extra.set(name, (this.extra.get(name) ?? 0) + (after.user + after.system) / 1e6);
    }
  }

  /** Prints the phases (and the parts timed within them). */
  report(): void {
    if (!this.last) return;
    const total = this.spent.reduce((sum, [, s]) => sum + s, 0);
    const parts = [...this.extra].map(([name, s]) => `${name} ${s.toFixed(3)}`);
    process.stderr.write(
      `[gym] ${this.stage}, CPU s by phase: ${this.spent.map(([name, s]) => `${name} ${s.toFixed(3)}`).join(", ")}; total ${total.toFixed(3)}${parts.length ? ` (within them: ${parts.join(", ")})` : ""}\n`,
    );
  }
}

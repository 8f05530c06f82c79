// Bearers the service refused, counted per client address at the MCP server (issue 23): past the
// budget a client's unknown bearers get 429 here, without asking the service. The service keeps its
// own count per client address when the MCP server can name it (a shared secret); without one, this
// is what keeps one client's junk from spending the service's budget for the MCP server's address.
// As at the service, a check in flight holds a place in the budget (a burst cannot race past it),
// and a request that finds the budget held by checks waits for them rather than being refused.

/**
 * Refused bearers per client address per minute: a third of the service's default budget, so that
 * without a shared secret one client's junk cannot spend the service's budget for this server's
 * address (it takes three addresses together; the shared secret closes that too).
 */
export const DEFAULT_MCP_REFUSALS_PER_MINUTE = 10;

const WINDOW_MS = 60_000;
/** Addresses tracked at once; beyond it the oldest idle ones are forgotten. */
const MAX_ADDRESSES = 50_000;
/** Requests of one address waiting for checks in flight; beyond it they are turned away. */
const MAX_WAITING = 1_000;

interface Window {
  start: number;
  refused: number;
  pending: number;
  waiting: (() => void)[];
}

export type Check = { allowed: true; settle(refused: boolean): void } | { allowed: false; retryAfterSeconds: number };

export class RefusalCounter {
  private readonly windows = new Map<string, Window>();
  private readonly perMinute: number;
  private readonly now: () => number;

  constructor(perMinute: number, now: () => number = Date.now) {
    this.perMinute = perMinute;
    this.now = now;
  }

  /** Whether `address` may have an unknown bearer checked now; the check is settled once decided. */
  async check(address: string): Promise<Check> {
    for (;;) {
      const now = this.now();
      const start = Math.floor(now / WINDOW_MS) * WINDOW_MS;
      let window = this.windows.get(address);
      if (window && window.start !== start) {
        window.start = start;
        window.refused = 0;
      }
      const refuse = (): Check => ({
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((start + WINDOW_MS - now) / 1000)),
      });
      if (window && window.refused >= this.perMinute) return refuse();
      if (window && window.refused + window.pending >= this.perMinute) {
        if (window.waiting.length >= MAX_WAITING) return refuse();
        const waiting = window.waiting;
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      if (!window) {
        this.makeRoom();
        window = { start, refused: 0, pending: 0, waiting: [] };
        this.windows.set(address, window);
      }
      window.pending++;
      const held = window;
      let settled = false;
      return {
        allowed: true,
        settle: (refused) => {
          if (settled) return;
          settled = true;
          held.pending--;
          if (refused && held.start === start) held.refused++;
          for (const wake of held.waiting.splice(0)) wake();
        },
      };
    }
  }

  /** Forgets the windows that are over (called once a minute). */
  sweep(): void {
    const start = Math.floor(this.now() / WINDOW_MS) * WINDOW_MS;
    for (const [address, window] of this.windows)
      if (this.idle(window) && window.start !== start) this.windows.delete(address);
  }

  private idle(window: Window): boolean {
    return window.pending === 0 && window.waiting.length === 0;
  }

  private makeRoom(): void {
    if (this.windows.size < MAX_ADDRESSES) return;
    for (const [address, window] of this.windows) {
      if (!this.idle(window)) continue;
      this.windows.delete(address);
      if (this.windows.size < MAX_ADDRESSES) return;
    }
  }
}

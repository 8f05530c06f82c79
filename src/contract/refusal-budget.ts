// Refused requests counted per client address per minute, shared by the service (its address
// throttle) and `mcp --http` (bearers the service refused, issue 23). Only refusals count: a request
// still being checked holds a place in the budget, so a burst sent at once cannot race past it, and
// one that finds the budget held by such checks waits for them to be decided rather than be refused
// for what nobody has refused yet.

const WINDOW_MS = 60_000;
/** Addresses tracked at once; beyond it the oldest idle ones are forgotten. */
const MAX_ADDRESSES = 50_000;
/** Requests of one address waiting for checks in flight; beyond it they are turned away (load shed). */
const MAX_WAITING = 1_000;

interface AddressWindow {
  start: number;
  refused: number;
  /** Requests admitted and not yet decided: they hold places in the budget. */
  pending: number;
  /** Requests waiting for a pending one to be decided, woken at each decision. */
  waiting: (() => void)[];
}

export type Admission =
  | { admitted: true; settle(refused: boolean): void }
  | { admitted: false; retryAfterSeconds: number };

export interface AdmitOptions {
  /** Asked before each look at the budget: true lets the request through without holding a place (a known key). */
  passes?: () => boolean;
  /** Told how the request was decided, whichever way it was admitted. */
  settled?: (refused: boolean) => void;
}

export class RefusalBudget {
  private readonly windows = new Map<string, AddressWindow>();
  private readonly perMinute: number;
  private readonly now: () => number;

  constructor(perMinute: number, now: () => number = Date.now) {
    this.perMinute = perMinute;
    this.now = now;
  }

  /** Admits a request of `address` or says when to come back; an admitted one is settled once decided. */
  async admit(address: string, options: AdmitOptions = {}): Promise<Admission> {
    for (;;) {
      if (options.passes?.()) return { admitted: true, settle: once((refused) => options.settled?.(refused)) };
      const now = this.now();
      const start = Math.floor(now / WINDOW_MS) * WINDOW_MS;
      let window = this.windows.get(address);
      if (window && window.start !== start) {
        window.start = start;
        window.refused = 0;
      }
      const refuse = (): Admission => ({
        admitted: false,
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
      return {
        admitted: true,
        settle: once((refused) => {
          held.pending--;
          if (refused && held.start === start) held.refused++;
          options.settled?.(refused);
          // Each waiter looks again: its key may now be known, or the budget refused or freed.
          for (const wake of held.waiting.splice(0)) wake();
        }),
      };
    }
  }

  /** Forgets the windows that are over (called once a minute). */
  sweep(): void {
    const start = Math.floor(this.now() / WINDOW_MS) * WINDOW_MS;
    for (const [address, window] of this.windows)
      if (idle(window) && window.start < start) this.windows.delete(address);
  }

  /** How many addresses are tracked (for tests of the bound). */
  get size(): number {
    return this.windows.size;
  }

  private makeRoom(): void {
    if (this.windows.size < MAX_ADDRESSES) return;
    for (const [address, window] of this.windows) {
      if (!idle(window)) continue;
      this.windows.delete(address);
      if (this.windows.size < MAX_ADDRESSES) return;
    }
  }
}

const idle = (window: AddressWindow) => window.pending === 0 && window.waiting.length === 0;

/** Settling again is a no-op. */
function once(settle: (refused: boolean) => void): (refused: boolean) => void {
  let settled = false;
  return (refused) => {
    if (settled) return;
    settled = true;
    settle(refused);
  };
}

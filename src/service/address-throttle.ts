// Refused requests are throttled by the address they come from, before authentication (issue 9): a
// client sending bad keys gets `refusalsPerMinute` 401s in a minute, then 429 for the rest of it
// without a key lookup or an audit row each. Counted in this process (each process guards its own
// database work); requests with a key this process accepted lately are never held back, so clients
// behind one address (a NAT, a proxy) keep working while a neighbour is throttled. Only refusals
// count (issue 23): a request whose key is still being checked holds a place in the budget, so a
// burst cannot race past it, but one that finds the budget taken by such requests waits for them to
// be decided rather than be refused for what nobody has refused yet.

/** The default budget of refused requests per address per minute (`serve --address-refusals`). */
export const DEFAULT_REFUSALS_PER_MINUTE = 30;

const WINDOW_MS = 60_000;
/** Addresses tracked at once; beyond it the oldest idle ones are forgotten. */
const MAX_ADDRESSES = 50_000;
/** Keys accepted lately, remembered (by hash) to let them past a throttled address. */
const MAX_GOOD_KEYS = 10_000;
const GOOD_KEY_MS = 10 * 60_000;
/** Requests of one address waiting for checks in flight; beyond it they are turned away (load shed). */
const MAX_WAITING = 1_000;

interface AddressState {
  windowStart: number;
  refused: number;
  /** Requests admitted and not yet decided: they hold places in the budget, so a burst cannot race past it. */
  pending: number;
  /** Requests waiting for a pending one to be decided, woken at each decision. */
  waiting: (() => void)[];
}

export type Admission =
  | { admitted: true; settle(refused: boolean): void }
  | { admitted: false; retryAfterSeconds: number };

export class AddressThrottle {
  private readonly addresses = new Map<string, AddressState>();
  private readonly goodKeys = new Map<string, number>();

  private readonly refusalsPerMinute: number;
  private readonly now: () => number;

  constructor(refusalsPerMinute: number, now: () => number = Date.now) {
    this.refusalsPerMinute = refusalsPerMinute;
    this.now = now;
  }

  /**
   * `keyHash` is the hash of the key presented, if any. An admitted request is settled once it is
   * decided: refused (401) or not; settling again is a no-op.
   */
  async admit(address: string, keyHash: string | undefined): Promise<Admission> {
    for (;;) {
      const now = this.now();
      const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
      if (keyHash !== undefined && (this.goodKeys.get(keyHash) ?? 0) > now) {
        return { admitted: true, settle: (refused) => this.settleKey(keyHash, refused, this.now()) };
      }
      let state = this.addresses.get(address);
      if (state && state.windowStart !== windowStart) {
        state.windowStart = windowStart;
        state.refused = 0;
      }
      const refuse = () => ({
        admitted: false as const,
        retryAfterSeconds: Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000)),
      });
      if (state && state.refused >= this.refusalsPerMinute) return refuse();
      if (state && state.refused + state.pending >= this.refusalsPerMinute) {
        if (state.waiting.length >= MAX_WAITING) return refuse();
        const waiting = state.waiting;
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      if (!state) {
        this.makeRoom();
        state = { windowStart, refused: 0, pending: 0, waiting: [] };
        this.addresses.set(address, state);
      }
      state.pending++;
      return { admitted: true, settle: this.settlement(state, windowStart, keyHash) };
    }
  }

  /** Forgets addresses whose window is over and keys not seen lately (called once a minute). */
  sweep(): void {
    const now = this.now();
    const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    for (const [address, state] of this.addresses) {
      if (state.pending === 0 && state.waiting.length === 0 && state.windowStart < windowStart)
        this.addresses.delete(address);
    }
    for (const [hash, until] of this.goodKeys) if (until <= now) this.goodKeys.delete(hash);
  }

  /** How many addresses are tracked (for tests of the bound). */
  get size(): number {
    return this.addresses.size;
  }

  private settlement(held: AddressState, windowStart: number, keyHash: string | undefined): (refused: boolean) => void {
    let settled = false;
    return (refused) => {
      if (settled) return;
      settled = true;
      held.pending--;
      if (refused && held.windowStart === windowStart) held.refused++;
      if (keyHash !== undefined) this.settleKey(keyHash, refused, this.now());
      // Each waiter looks again: its key may now be known, or the budget refused or freed.
      for (const wake of held.waiting.splice(0)) wake();
    };
  }

  private settleKey(keyHash: string, refused: boolean, now: number): void {
    if (refused) {
      this.goodKeys.delete(keyHash); // revoked: from now on it is a stranger's key
      return;
    }
    this.goodKeys.delete(keyHash);
    this.goodKeys.set(keyHash, now + GOOD_KEY_MS);
    if (this.goodKeys.size > MAX_GOOD_KEYS) this.goodKeys.delete(this.goodKeys.keys().next().value as string);
  }

  private makeRoom(): void {
    if (this.addresses.size < MAX_ADDRESSES) return;
    for (const [address, state] of this.addresses) {
      if (state.pending === 0 && state.waiting.length === 0) {
        this.addresses.delete(address);
        if (this.addresses.size < MAX_ADDRESSES) return;
      }
    }
  }
}

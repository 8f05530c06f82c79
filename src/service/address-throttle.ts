// Refused requests are throttled by the address they come from, before authentication (issue 9): a
// client sending bad keys gets `refusalsPerMinute` 401s in a minute, then 429 for the rest of it
// without a key lookup or an audit row each. Counted in this process (each process guards its own
// database work); requests with a key this process accepted lately are never held back, so clients
// behind one address (a NAT, a proxy) keep working while a neighbour is throttled. Only refusals
// count (issue 23): a request whose key is still being checked holds a place in the budget, so a
// burst cannot race past it, but one that finds the budget taken by such requests waits for them to
// be decided rather than be refused for what nobody has refused yet.

import { type Admission, RefusalBudget } from '../contract/refusal-budget.ts';

/** The default budget of refused requests per address per minute (`serve --address-refusals`). */
export const DEFAULT_REFUSALS_PER_MINUTE = 30;

/** Keys accepted lately, remembered (by hash) to let them past a throttled address. */
const MAX_GOOD_KEYS = 10_000;
const GOOD_KEY_MS = 10 * 60_000;

export type { Admission } from '../contract/refusal-budget.ts';

export class AddressThrottle {
  private readonly budget: RefusalBudget;
  private readonly goodKeys = new Map<string, number>();
  private readonly now: () => number;

  constructor(refusalsPerMinute: number, now: () => number = Date.now) {
    this.budget = new RefusalBudget(refusalsPerMinute, now);
    this.now = now;
  }

  /**
   * `keyHash` is the hash of the key presented, if any. An admitted request is settled once it is
   * decided: refused (401) or not; settling again is a no-op.
   */
  admit(address: string, keyHash: string | undefined): Promise<Admission> {
    if (keyHash === undefined) return this.budget.admit(address);
    return this.budget.admit(address, {
      passes: () => (this.goodKeys.get(keyHash) ?? 0) > this.now(),
      settled: (refused) => this.settleKey(keyHash, refused),
    });
  }

  /** Forgets addresses whose window is over and keys not seen lately (called once a minute). */
  sweep(): void {
    this.budget.sweep();
    const now = this.now();
    for (const [hash, until] of this.goodKeys) if (until <= now) this.goodKeys.delete(hash);
  }

  /** How many addresses are tracked (for tests of the bound). */
  get size(): number {
    return this.budget.size;
  }

  private settleKey(keyHash: string, refused: boolean): void {
    this.goodKeys.delete(keyHash);
    // A refused key was revoked: from now on it is a stranger's key.
    if (refused) return;
    this.goodKeys.set(keyHash, this.now() + GOOD_KEY_MS);
    if (this.goodKeys.size > MAX_GOOD_KEYS) this.goodKeys.delete(this.goodKeys.keys().next().value as string);
  }
}

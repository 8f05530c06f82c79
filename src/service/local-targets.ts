// Whether this service may reach this machine and private networks (issue 22): projects on
// localhost, audits and monitoring checks of private addresses, webhooks and OAuth documents on
// them. On a shared service that is SSRF into the host (every member's key could audit
// localhost:5432), so only the single-user local service allows them by default, and only while it
// stays single-user: the first person besides the local owner turns them off, without a restart.
import { LOCAL_USER_EMAIL } from './accounts.ts';
import type { Store } from './store/index.ts';

/** A fixed answer, or one asked again at each use (it may change while the service runs). */
export type Allowance = boolean | (() => boolean);

export const isAllowed = (allowance: Allowance): boolean => (typeof allowance === 'function' ? allowance() : allowance);

/** People with an account on this store besides the embedded default's local owner. */
export function membersBesidesLocalOwner(store: Store): Promise<number> {
  return store.accounts.countUsersExcept(LOCAL_USER_EMAIL);
}

/** What the single-user rule watches: the store's people, and whom to tell when they stop being one. */
interface PeopleWatch {
  store: Store;
  onRefused: (members: number) => void;
}

export class LocalTargets {
  #allowed: boolean;
  /** Set while the answer depends on the store's people (the single-user rule). */
  readonly #watch: PeopleWatch | undefined;

  private constructor(allowed: boolean, watch?: PeopleWatch) {
    this.#allowed = allowed;
    this.#watch = allowed ? watch : undefined;
  }

  /** The operator's (or a test's) answer, for the life of the service. */
  static fixed(allowed: boolean): LocalTargets {
    return new LocalTargets(allowed);
  }

  /**
   * Allowed while the store has nobody besides the local owner; `members` is how many it has now.
   * `onRefused` is told when one joins later and local targets are turned off.
   */
  static async whileSingleUser(
    store: Store,
    onRefused: (members: number) => void,
  ): Promise<{ localTargets: LocalTargets; members: number }> {
    const members = await membersBesidesLocalOwner(store);
    return { localTargets: new LocalTargets(members === 0, { store, onRefused }), members };
  }

  get allowed(): boolean {
    return this.#allowed;
  }

  /**
   * Counts the people again (someone joined, signed in, or was added from the command line). Once
   * off, local targets stay off until a restart decides again: a member removed later may still
   * hold keys and sessions made meanwhile.
   */
  async recheck(): Promise<void> {
    const watch = this.#watch;
    if (!watch || !this.#allowed) return;
    const members = await membersBesidesLocalOwner(watch.store);
    if (members === 0 || !this.#allowed) return;
    this.#allowed = false;
    watch.onRefused(members);
  }
}

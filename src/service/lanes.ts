// Lanes of background work (the webhook deliverer's sends, the monitor's checks): a fixed number of
// items at a time, each lane on its own. A pass fills the free lanes and returns without waiting for
// their work, so what comes due while a long item runs (an endpoint that never answers, a slow site)
// is taken by a free lane at the next pass, not once the long one ends; a lane that frees calls
// `onFree`, which asks for a pass. Issue 28: a pass that awaited every lane let one tenant's slow
// items hold the others' work for as long as they lasted.
export interface LanesOptions<T> {
  lanes: number;
  claim: () => Promise<T | undefined>;
  work: (item: T) => Promise<void>;
  /** A lane freed: there may be more to claim. */
  onFree: () => void;
  /** An item's work failed (a claim's failure is the pass's). */
  onError: (error: Error) => void;
}

export class Lanes<T> {
  readonly #options: LanesOptions<T>;
  readonly #running = new Set<Promise<void>>();
  /** Claims under way: passes that overlap share the free lanes rather than each fill them. */
  #claiming = 0;
  /** Items ended so far: a claim that found nothing while one ended may find something now. */
  #ended = 0;

  constructor(options: LanesOptions<T>) {
    this.#options = options;
  }

  /** Items being worked on now. */
  get busy(): number {
    return this.#running.size;
  }

  /** Claims into the free lanes until none is free or nothing can be claimed, and starts each item. */
  async fill(): Promise<void> {
    while (this.#running.size + this.#claiming < this.#options.lanes) {
      this.#claiming += 1;
      let item: T | undefined;
      try {
        item = await this.#options.claim();
      } finally {
        this.#claiming -= 1;
      }
      if (item === undefined) return;
      const work: Promise<void> = this.#options
        .work(item)
        .catch((error: Error) => this.#options.onError(error))
        .finally(() => {
          this.#ended += 1;
          this.#running.delete(work);
          this.#options.onFree();
        });
      this.#running.add(work);
    }
  }

  /** Fills and waits, until nothing runs and nothing more can be claimed (tests and benchmarks drive passes so). */
  async drain(): Promise<void> {
    for (;;) {
      const ended = this.#ended;
      await this.fill();
      if (this.#running.size > 0) await Promise.race(this.#running);
      else if (this.#ended === ended) return;
    }
  }

  /** Waits for the items in hand. */
  async settled(): Promise<void> {
    await Promise.all(this.#running);
  }
}

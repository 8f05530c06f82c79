// A background job's rhythm, shared by the webhook deliverer and the site monitor: a pass on a timer
// and on demand, one pass at a time (a wake-up during a pass asks for one more after it), and a
// stop that waits for the pass in hand.
export class PassLoop {
  readonly #pass: () => Promise<void>;
  readonly #everyMs: number;
  readonly #onError: (error: Error) => void;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = false;

  constructor(pass: () => Promise<void>, everyMs: number, onError: (error: Error) => void) {
    this.#pass = pass;
    this.#everyMs = everyMs;
    this.#onError = onError;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  start(): void {
    const loop = () => {
      if (this.#stopped) return;
      this.wake();
      this.#timer = setTimeout(loop, this.#everyMs);
      this.#timer.unref();
    };
    loop();
  }

  /** A pass now; one pass at a time, one more if asked meanwhile. */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#pass()
      .catch(this.#onError)
      .finally(() => {
        this.#running = undefined;
        if (this.#again) {
          this.#again = false;
          this.wake();
        }
      });
  }

  /** No more passes; waits for the one in hand. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#running;
  }
}

/**
 * Claims work with `claim` and does it with `work`, `lanes` at a time, until `claim` finds none.
 * Idle, it makes one claim look; the other lanes start only when there is work.
 */
export async function drainInLanes<T>(
  claim: () => Promise<T | undefined>,
  work: (item: T) => Promise<void>,
  lanes: number,
): Promise<void> {
  const lane = async (first?: T) => {
    for (let item = first ?? (await claim()); item !== undefined; item = await claim()) await work(item);
  };
  const first = await claim();
  if (first === undefined) return;
  await Promise.all([lane(first), ...Array.from({ length: lanes - 1 }, () => lane())]);
}

// A background job's rhythm, shared by the webhook deliverer and the site monitor: a pass on a timer
// and on demand, one pass at a time (a wake-up during a pass asks for one more after it), and a
// stop that waits for the pass in hand.
export class PassLoop {
  readonly #pass: () => Promise<void>;
  readonly #everyMs: number | (() => number);
  readonly #onError: (error: Error) => void;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = false;
  #restart: (() => void) | undefined;

  /** `everyMs` may be a function, asked before each wait (a pace that changes: wakeups.ts). */
  constructor(pass: () => Promise<void>, everyMs: number | (() => number), onError: (error: Error) => void) {
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
      this.#timer = setTimeout(loop, typeof this.#everyMs === 'function' ? this.#everyMs() : this.#everyMs);
      this.#timer.unref();
    };
    this.#restart = loop;
    loop();
  }

  /** Once started: a pass now, and the timer started again at the pace of the moment. */
  restart(): void {
    if (!this.#restart || this.#stopped) return;
    clearTimeout(this.#timer);
    this.#restart();
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

// Client-side pacing: at most `limit` requests in any `windowMs`, per API key, so a client never
// runs into the service's 60-per-minute limit (spec 8) however many calls its users make at once.
import { createHash } from 'node:crypto';

export interface PacingOptions {
  limit: number;
  windowMs: number;
}

export const DEFAULT_PACING: PacingOptions = { limit: 60, windowMs: 60_000 };

/** The request would have had to wait past the caller's bound for its turn; nothing was sent. */
export class PacingExceeded extends Error {
  override readonly name = 'PacingExceeded';
  readonly retryAfterMs: number;
  constructor(retryAfterMs: number) {
    super(
      `this client has sent its requests of the window for this key; the next may go in ${Math.ceil(retryAfterMs / 1000)} s`,
    );
    this.retryAfterMs = retryAfterMs;
  }
}

export class RequestPacer {
  readonly #options: PacingOptions;
  readonly #sent: number[] = [];
  #waiting = 0;
  #queue: Promise<void> = Promise.resolve();

  constructor(options: PacingOptions = DEFAULT_PACING) {
    this.#options = options;
  }

  /** No request in the current window and none waiting: forgetting this pacer changes nothing. */
  idle(now: number): boolean {
    const last = this.#sent.at(-1);
    return !this.#waiting && (last === undefined || last <= now - this.#options.windowMs);
  }

  /**
   * Resolves when one more request may be sent; requests are admitted in call order. A request whose
   * turn would come later than `maxWaitMs` from now is refused at once with PacingExceeded (it takes
   * no place in the window), so a caller with a deadline of its own never sits out a whole window.
   */
  acquire(maxWaitMs = Number.POSITIVE_INFINITY): Promise<void> {
    const deadline = Date.now() + maxWaitMs;
    this.#waiting++;
    const turn = this.#queue.then(() => this.#wait(deadline)).finally(() => this.#waiting--);
    this.#queue = turn.catch(() => {});
    return turn;
  }

  async #wait(deadline: number): Promise<void> {
    const { limit, windowMs } = this.#options;
    for (;;) {
      const now = Date.now();
      while (this.#sent.length > 0 && (this.#sent[0] as number) <= now - windowMs) this.#sent.shift();
      if (this.#sent.length < limit) {
        this.#sent.push(now);
        return;
      }
      const opens = (this.#sent[0] as number) + windowMs + 1;
      if (opens > deadline) throw new PacingExceeded(opens - now);
      await new Promise((resolve) => setTimeout(resolve, opens - now));
    }
  }
}

// One pacer per key in this process: every client of the same key shares the budget.
const pacers = new Map<string, RequestPacer>();
// Past this many keys, pacers with nothing in their window are dropped: a new one behaves the same,
// and a server that sees many keys (the MCP HTTP endpoint) does not keep every key it ever saw.
const PACERS_BEFORE_SWEEP = 1000;

/** How many keys this process paces (for tests of the sweep). */
export const pacerCount = () => pacers.size;

export function pacerFor(apiKey: string, options: PacingOptions = DEFAULT_PACING): RequestPacer {
  const id = `${createHash('sha256').update(apiKey).digest('hex')}:${options.limit}/${options.windowMs}`;
  let pacer = pacers.get(id);
  if (!pacer && pacers.size >= PACERS_BEFORE_SWEEP) {
    const now = Date.now();
    for (const [other, candidate] of pacers) if (candidate.idle(now)) pacers.delete(other);
  }
  if (!pacer) {
    pacer = new RequestPacer(options);
    pacers.set(id, pacer);
  }
  return pacer;
}

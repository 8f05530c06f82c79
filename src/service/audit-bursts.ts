// Refused unauthenticated requests are written to the audit log one row per burst (issue 9): the
// first refusal of an address and status in a minute is a row at once, and the rest of that minute
// are counted into it (`request_count`) every few seconds. A flood of bad keys costs one insert and
// a few updates, not a row each; the log still tells who knocked, when, on what, and how often.
import type { AuditEntry, Store } from './store/index.ts';

const WINDOW_MS = 60_000;
const FLUSH_MS = 5_000;

interface Burst {
  windowStart: number;
  /** The row's id, once written. */
  row: Promise<string | undefined>;
  /** Requests counted since the row was written or last updated. */
  unwritten: number;
}

export class AuditBursts {
  private readonly bursts = new Map<string, Burst>();
  private readonly timer: NodeJS.Timeout;
  private readonly store: Store;
  private readonly log: (line: string) => void;
  private readonly now: () => number;

  constructor(store: Store, log: (line: string) => void, now: () => number = Date.now) {
    this.store = store;
    this.log = log;
    this.now = now;
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /**
   * Records one refused request from `entry.clientAddress`. The first of a burst resolves once its
   * row is written; the rest at once.
   */
  async record(entry: AuditEntry & { clientAddress: string }): Promise<void> {
    const windowStart = Math.floor(this.now() / WINDOW_MS) * WINDOW_MS;
    const id = `${entry.clientAddress} ${entry.status}`;
    const burst = this.bursts.get(id);
    if (burst && burst.windowStart === windowStart) {
      burst.unwritten++;
      return;
    }
    if (burst) void this.write(burst);
    const row = this.store.auditLog.append(entry).catch((error: Error) => {
      this.log(`audit log write failed: ${error.message}`);
      return undefined;
    });
    this.bursts.set(id, { windowStart, row, unwritten: 0 });
    await row;
  }

  /** Writes the counts gathered so far, and forgets bursts of past minutes. */
  async flush(): Promise<void> {
    const windowStart = Math.floor(this.now() / WINDOW_MS) * WINDOW_MS;
    const writes: Promise<void>[] = [];
    for (const [id, burst] of this.bursts) {
      writes.push(this.write(burst));
      if (burst.windowStart < windowStart) this.bursts.delete(id);
    }
    await Promise.all(writes);
  }

  /** Stops the timer and writes what is left, first rows included. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.bursts.values()].map((burst) => burst.row));
    await this.flush();
  }

  private async write(burst: Burst): Promise<void> {
    const more = burst.unwritten;
    if (more === 0) return;
    burst.unwritten = 0;
    const id = await burst.row;
    if (!id) return;
    try {
      await this.store.auditLog.addRequests(id, more);
    } catch (error) {
      burst.unwritten += more;
      this.log(`audit log write failed: ${(error as Error).message}`);
    }
  }
}

// The network half of the throttling profile Core Web Vitals are measured under (vitals.ts), applied
// where the renderer answers the page's requests. Chromium's own network emulation
// (Network.emulateNetworkConditions) never reaches a request answered by interception, and every
// request here is (renderer.ts): a page with a 200 KB image loaded in 339 ms under slow 4G emulation
// with interception, 1,207 ms without it. So the link is emulated as DevTools emulates it, measured
// against Chromium 156: a response is held until at least `latencyMs` after its request was sent
// (the real fetch counts towards it: it is a minimum, not an addition), then its bytes cross one
// link whose throughput the responses in flight share equally.
export interface ThrottlingProfile {
  /** What the profile is, in the docs' words. */
  name: string;
  /** Least time from a request sent to its response starting (DevTools' `latency`). */
  requestLatencyMs: number;
  /** The download link's throughput, in kilobits (1,024 bits) per second, shared by the responses in flight. */
  downloadThroughputKbps: number;
  /** The main thread slowed this many times (Emulation.setCPUThrottlingRate). */
  cpuSlowdownMultiplier: number;
}

/**
 * Lighthouse's mobile default, "slow 4G" with a 4x CPU slowdown, as Lighthouse applies it with
 * `--throttling-method=devtools` (Lighthouse 13.5, core/config/constants.js from the trace engine's
 * lantern Constants: RTT 150 ms x 3.75 and 1.6 Mbps x 0.9, the adjustments that make DevTools'
 * per-request throttling approximate the simulated profile). Uploads are not throttled: the
 * renderer sends GETs only, whose requests are a few hundred bytes.
 */
export const MOBILE_SLOW_4G: ThrottlingProfile = {
  name: "Lighthouse's mobile slow 4G, applied as DevTools throttling",
  requestLatencyMs: 150 * 3.75,
  downloadThroughputKbps: 1.6 * 1024 * 0.9,
  cpuSlowdownMultiplier: 4,
};

/** Bytes per millisecond, as Lighthouse converts the profile for DevTools (floor(kbps * 1024 / 8) per second). */
export const bytesPerMs = (profile: ThrottlingProfile) =>
  Math.floor((profile.downloadThroughputKbps * 1024) / 8) / 1000;

/** The bytes of a response's status line and headers, as HTTP/1.1 sends them (they cross the link too). */
export function headerBytes(headers: Record<string, string>): number {
  let bytes = 17; // "HTTP/1.1 200 OK\r\n"
  for (const [name, value] of Object.entries(headers)) bytes += name.length + value.length + 4;
  return bytes + 2;
}

export interface ThrottledLink {
  /**
   * Resolves when a response of `bytes` whose request was sent at `sentAt` (performance.now()) has
   * crossed the link: right away once the link is released.
   */
  deliver(sentAt: number, bytes: number): Promise<void>;
  /** Ends throttling: every response held is let through now, and later ones are not held. */
  release(): void;
  readonly released: boolean;
}

interface Transfer {
  left: number;
  done: () => void;
}

/**
 * One link, its throughput shared equally by the transfers on it (processor sharing, as DevTools
 * divides it among the requests receiving). At most one timer is pending: the next transfer to end.
 */
export function throttledLink(profile: ThrottlingProfile): ThrottledLink {
  const rate = bytesPerMs(profile);
  let active: Transfer[] = [];
  const waiting = new Set<() => void>();
  let last = performance.now();
  let timer: NodeJS.Timeout | undefined;
  let released = false;

  /** Moves every transfer on by the bytes the link carried since the last step; ends those done. */
  function advance(): void {
    const now = performance.now();
    if (active.length > 0) {
      const each = ((now - last) * rate) / active.length;
      for (const transfer of active) transfer.left -= each;
    }
    last = now;
    // Half a byte: what a timer firing a fraction of a millisecond early leaves.
    const done = active.filter((t) => t.left <= 0.5);
    if (done.length === 0) return;
    active = active.filter((t) => t.left > 0.5);
    for (const transfer of done) transfer.done();
  }

  function schedule(): void {
    clearTimeout(timer);
    timer = undefined;
    if (active.length === 0) return;
    let least = Number.POSITIVE_INFINITY;
    for (const transfer of active) least = Math.min(least, transfer.left);
    timer = setTimeout(
      () => {
        advance();
        schedule();
      },
      Math.max(0, (least * active.length) / rate),
    );
  }

  /** Waits `ms`, or less when the link is released meanwhile. */
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(pending);
        waiting.delete(wake);
        resolve();
      };
      const pending = setTimeout(wake, ms);
      waiting.add(wake);
    });

  return {
    async deliver(sentAt, bytes) {
      const hold = sentAt + profile.requestLatencyMs - performance.now();
      if (hold > 0 && !released) await sleep(hold);
      if (released || bytes <= 0) return;
      await new Promise<void>((done) => {
        advance();
        active.push({ left: bytes, done });
        schedule();
      });
    },
    release() {
      released = true;
      clearTimeout(timer);
      timer = undefined;
      for (const wake of [...waiting]) wake();
      for (const transfer of active) transfer.done();
      active = [];
    },
    get released() {
      return released;
    },
  };
}

// Report links that open on the embedded local service (issue 24; docs/decisions.md, "Local report
// links"). The local person has no password: they sign in through a link. Like Jupyter's tokenized
// local URL, each humanUrl the local key is given carries `?access=`, an HMAC of the run's (or the
// project's) path under a secret of this store: a run's report and its findings' pages share one
// token, so a list of findings can say their address once (issue 26). Opened in a browser on this machine, the link starts a session of
// the local user and redirects to the page without it. It is honoured only while the service is the
// single-user local service, only from a loopback peer and a loopback Host (a page of another site
// that rebinds its name to 127.0.0.1 cannot use it), and a deployment never issues or reads one.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

export const ACCESS_PARAM = 'access';

/** The dashboard pages a humanUrl may point to: a run, its findings, a project and its monitoring. */
const DASHBOARD_PATH = /^\/(runs|projects)\/[0-9a-f-]{36}(\/(findings\/[A-Za-z0-9_-]{1,64}|monitoring))?$/;

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Whether an address (of a socket peer) is this machine: 127.0.0.0/8, ::1, or IPv4 127/8 mapped in IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1';
}

/** Whether a Host header names this machine (any port). */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
  return LOOPBACK_NAMES.has((name ?? '').toLowerCase());
}

export class LocalLinks {
  readonly #secret: string;

  constructor(secret: string) {
    this.#secret = secret;
  }

  /** The token of a dashboard page's path: its run's or project's (`/runs/{id}`, `/projects/{id}`). */
  tokenFor(pathname: string): string {
    const scope = pathname.split('/').slice(0, 3).join('/');
    return createHmac('sha256', this.#secret).update(`dashboard-link\0${scope}`).digest('base64url');
  }

  /** Whether `token` was issued for `pathname`. */
  valid(pathname: string, token: string | undefined): boolean {
    if (token?.length !== 43 || !DASHBOARD_PATH.test(pathname)) return false;
    const expected = Buffer.from(this.tokenFor(pathname));
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /**
   * A humanUrl as the local person opens it: on this service's current address (the port may have
   * moved since the run stored it) with its token. Anything but a dashboard page is left as it is.
   */
  link(humanUrl: string, publicUrl: string): string {
    let url: URL;
    try {
      url = new URL(humanUrl);
    } catch {
      return humanUrl;
    }
    if (!DASHBOARD_PATH.test(url.pathname)) return humanUrl;
    const base = new URL(publicUrl);
    base.pathname = url.pathname;
    base.search = '';
    base.searchParams.set(ACCESS_PARAM, this.tokenFor(url.pathname));
    return base.toString();
  }

  /** Every `humanUrl` string in a JSON value, linked; the value is changed in place and returned. */
  linkAll(value: unknown, publicUrl: string): unknown {
    // An explicit stack: answers are bounded, but their depth is the service's own shapes, not recursion's.
    const stack: unknown[] = [value];
    while (stack.length > 0) {
      const item = stack.pop();
      if (Array.isArray(item)) {
        for (const element of item) if (element !== null && typeof element === 'object') stack.push(element);
      } else if (item !== null && typeof item === 'object') {
        const record = item as Record<string, unknown>;
        for (const [key, child] of Object.entries(record)) {
          if (key === 'humanUrl' && typeof child === 'string') record[key] = this.link(child, publicUrl);
          else if (child !== null && typeof child === 'object') stack.push(child);
        }
      }
    }
    return value;
  }
}

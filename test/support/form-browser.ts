// A browser as far as the dashboard's forms need one: a cookie jar, redirects seen one at a time, and
// forms sent with the CSRF token the page carries. Tests play the person with it.
import { addMember, createUser } from '../../src/service/accounts.ts';
import type { Store } from '../../src/service/store/index.ts';
export interface Page {
  status: number;
  url: string;
  location: string | null;
  headers: Headers;
  html: string;
}

export class TestBrowser {
  readonly cookies = new Map<string, string>();
  readonly origin: string;
  constructor(origin: string) {
    this.origin = origin;
  }

  #remember(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async #page(url: string, response: Response): Promise<Page> {
    this.#remember(response.headers);
    return {
      status: response.status,
      url,
      location: response.headers.get('location'),
      headers: response.headers,
      html: await response.text(),
    };
  }

  #cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async get(path: string): Promise<Page> {
    const url = path.startsWith('http') ? path : `${this.origin}${path}`;
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: this.#cookieHeader() } });
    return this.#page(url, response);
  }

  /** Follows redirects on this service (not elsewhere) from `path`, as a browser would. */
  async open(path: string, hops = 5): Promise<Page> {
    let page = await this.get(path);
    for (let i = 0; i < hops && page.location && new URL(page.location, this.origin).origin === this.origin; i++)
      page = await this.get(new URL(page.location, this.origin).href);
    return page;
  }

  /** Posts a form; `fields` may repeat a name with an array. The CSRF token is taken from `from` unless given. */
  async post(
    path: string,
    fields: Record<string, string | string[]>,
    options: { from?: Page; origin?: string } = {},
  ): Promise<Page> {
    const body = new URLSearchParams();
    const csrf = options.from ? csrfOf(options.from.html) : undefined;
    if (csrf && fields.csrf === undefined) body.append('csrf', csrf);
    for (const [name, value] of Object.entries(fields))
      for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
    const url = `${this.origin}${path}`;
    const response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: this.#cookieHeader(),
        'content-type': 'application/x-www-form-urlencoded',
        origin: options.origin ?? this.origin,
      },
      body,
    });
    return this.#page(url, response);
  }

  /** Signs in through the sign-in page. */
  async signIn(email: string, password: string): Promise<Page> {
    const form = await this.get('/sign-in');
    return this.post('/sign-in', { email, password, next: '/' }, { from: form });
  }
}

export function csrfOf(html: string): string | undefined {
  return /name="csrf" value="([^"]+)"/.exec(html)?.[1];
}

/** A person signed in to the dashboard as an owner of `organizationId` (made for the test). */
export async function signedInOwner(
  service: { url: string; store: Store },
  organizationId: string,
): Promise<TestBrowser> {
  const email = `owner-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const password = 'correct horse battery staple';
  const user = await createUser(service.store, { email, name: 'Owner', password });
  await addMember(service.store, user.id, organizationId, 'owner');
  const browser = new TestBrowser(service.url);
  const signedIn = await browser.signIn(email, password);
  if (signedIn.status !== 303) throw new Error(`could not sign in: ${signedIn.status}`);
  return browser;
}

// Starts the real service on a loopback port over a fresh store, with helpers to make organizations,
// keys and requests. Requests go over HTTP with fetch, as any client's would.
import { randomBytes } from 'node:crypto';
import type { Scope } from '../../src/contract/index.ts';
import { issueKey } from '../../src/service/api-keys.ts';
import { createOrganization } from '../../src/service/organizations.ts';
import type { Plan } from '../../src/service/plans.ts';
import { type RunningService, type StartOptions, startService } from '../../src/service/server.ts';
import { openStore, type Store } from '../../src/service/store/index.ts';
import type { TestBackend, TestLocation } from './backends.ts';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  method?: string;
  key?: string | null;
  /** A value to send as JSON. */
  json?: unknown;
  /** Raw body text, sent as is. */
  body?: string;
  headers?: Record<string, string>;
}

export interface TestService {
  url: string;
  store: Store;
  location: TestLocation;
  kek: Buffer;
  service: RunningService;
  request<T = unknown>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  createOrg(input?: { name?: string; plan?: Plan; credits?: number }): Promise<{ id: string; slug: string }>;
  createKey(organizationId: string, input?: { scopes?: Scope[]; projectId?: string; name?: string }): Promise<string>;
  /** Creates a project over the API and answers its id. */
  createProject(key: string, domain: string): Promise<string>;
  /** An organization on the pro plan with a full-scope key. */
  tenant(plan?: Plan, credits?: number): Promise<{ organizationId: string; key: string }>;
  close(): Promise<void>;
}

export async function request<T>(baseUrl: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method: options.method ?? 'GET', headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: the body stays text
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export async function startTestService(
  backend: TestBackend,
  options: Partial<Omit<StartOptions, 'store' | 'kek'>> & { kek?: Buffer | Error; location?: TestLocation } = {},
): Promise<TestService> {
  const location = options.location ?? (await backend.create());
  const store = await openStore(location);
  const kek = randomBytes(32);
  const service = await startService({
    port: 0,
    allowLocalTargets: false,
    version: '9.9.9',
    // Suites share a key across many requests; the rate-limit tests set their own limit.
    rateLimit: 1_000_000,
    // Suites send many bad keys from 127.0.0.1; the throttle's own tests set its budget.
    refusalsPerMinute: 1_000_000,
    // Tests poll quickly; the worker looks for work often.
    worker: { pollMs: 100 },
    ...options,
    store,
    kek: options.kek ?? kek,
  });
  const self: TestService = {
    url: service.url,
    store,
    location,
    kek,
    service,
    request: (path, requestOptions) => request(service.url, path, requestOptions),
    async createOrg(input = {}) {
      const row = await createOrganization(store, {
        name: input.name ?? `Org ${randomBytes(3).toString('hex')}`,
        plan: input.plan ?? 'pro',
        credits: input.credits,
      });
      return { id: row.id, slug: row.slug };
    },
    async createKey(organizationId, input = {}) {
      const { secret } = await issueKey(store, kek, {
        organizationId,
        name: input.name ?? 'test key',
        scopes: input.scopes,
        projectId: input.projectId ?? null,
        source: 'admin',
      });
      return secret;
    },
    async createProject(key, domain) {
      const res = await self.request<{ projectId?: string }>('/api/v1/projects', {
        key,
        method: 'POST',
        json: { domain },
      });
      if (!res.body.projectId) throw new Error(`project ${domain} not created: ${res.status} ${res.text}`);
      return res.body.projectId;
    },
    async tenant(plan = 'pro', credits?: number) {
      const org = await self.createOrg({ plan, ...(credits === undefined ? {} : { credits }) });
      return { organizationId: org.id, key: await self.createKey(org.id) };
    },
    async close() {
      await service.close();
      await store.close();
      if (!options.location) await location.cleanup();
    },
  };
  return self;
}

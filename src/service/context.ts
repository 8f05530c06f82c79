// What the HTTP layer shares: the dependencies every route gets, and the per-request variables.

import type { Context } from 'hono';
import type Provider from 'oidc-provider';
import type { AuditOptions } from '../audit/index.ts';
import type { Scope } from '../contract/index.ts';
import type { AddressThrottle } from './address-throttle.ts';
import type { AuditBursts } from './audit-bursts.ts';
import type { CursorCodec } from './cursor.ts';
import type { LocalLinks } from './local-links.ts';
import type { ResourcePolicy } from './oauth/provider.ts';
import type { RunWatch } from './run-watch.ts';
import type { SessionStore } from './sessions.ts';
import type { ApiKeyRow, OrganizationRow, Store } from './store/index.ts';

export interface ServiceOptions {
  /** Requests per minute per key (spec 8: 60). */
  rateLimit: number;
  /**
   * Requests per minute for the local service's own key (source `local`), which the command line
   * and every MCP host of one person share (issue 24): higher than a key's, still bounded.
   */
  localRateLimit: number;
  /**
   * Whether projects may target this machine (the single-user local service, tests). Read at each
   * request: the service's local-targets policy may turn it off while it runs.
   */
  readonly allowLocalTargets: boolean;
  /** Base address for links in responses and /openapi.json. */
  publicUrl: string;
  /** This package's version, reported as latestCliVersion. */
  version: string;
  /** Largest accepted request body, in bytes. */
  maxBodyBytes: number;
  /** Take the client address from X-Forwarded-For's last hop (behind a reverse proxy). */
  trustProxy: boolean;
  /** The secret with which `mcp --http` signs its clients' addresses (SITEAUDIT_MCP_SECRET; issue 23). */
  mcpSecret?: string;
  /** Monitoring: the interval of a project that sets none, and the shortest one a project may ask for. */
  monitorIntervalMinutes: number;
  monitorMinIntervalMinutes: number;
}

export interface ServiceDeps {
  store: Store;
  cursors: CursorCodec;
  /** The key-encryption key, or the reason it is unavailable (spec 4.2: 503 key_encryption_unavailable). */
  kek: Buffer | Error;
  options: ServiceOptions;
  /** Called after a run was created, so a worker in this process can start on it at once. */
  onRunCreated?: () => void;
  /** Called after a delivery was queued again, so this process's deliverer sends it at once. */
  onDeliveryQueued?: () => void;
  /** Called after monitoring was switched on, so this process's monitor looks at once. */
  onMonitoringChanged?: () => void;
  /** Long polls of runs, woken by this process's worker. */
  runWatch: RunWatch;
  /** Refused requests per address, checked before authentication. */
  addressThrottle: AddressThrottle;
  /** Audit rows of refused unauthenticated requests, one per burst. */
  auditBursts: AuditBursts;
  /** Dashboard sessions and CSRF tokens. */
  sessions: SessionStore;
  /** The OAuth authorization server, ready once the service listens (its issuer is the public address). */
  oauth: () => Promise<Provider>;
  /** Which MCP resources OAuth tokens may be for (issue 12). */
  oauthResources: ResourcePolicy;
  /** Report links that sign the local person in (the single-user local service only; issue 24). */
  localLinks?: LocalLinks;
  /** How the audits fetch and render (DNS, CA, ports, the renderer, the SSRF guard): rechecks use the same. */
  engine?: AuditOptions;
}

export interface AuthContext {
  key: ApiKeyRow;
  organization: OrganizationRow;
  scopes: readonly Scope[];
}

/** The part of a Node request the app reads: the peer's address. */
export interface SocketHolder {
  socket?: { remoteAddress?: string | undefined };
}

export interface AppEnv {
  /** What @hono/node-server passes (the Node request, for the socket's address); absent in app.request(). */
  Bindings: { incoming?: SocketHolder; outgoing?: unknown };
  Variables: { auth: AuthContext; clientAddress: string };
}

export type AppContext = Context<AppEnv>;

// The database tables as Kysely types. Times are ISO 8601 strings (UTC) in both backends.
import type { Generated, Insertable, Selectable } from 'kysely';

export interface OrganizationsTable {
  id: string;
  name: string;
  slug: string;
  plan: string;
  credits_remaining: number;
  credits_monthly: number;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  project_id: string | null;
  name: string;
  prefix: string;
  secret_hash: string;
  secret_ciphertext: string;
  scopes: string; // JSON array
  source: string; // admin, cli, local, dashboard
  created_at: string;
  revoked_at: string | null;
  /** When the key was last accepted (written at most once a minute). */
  last_used_at: string | null;
  /** The user who made it on the dashboard or through `siteaudit login` (null for operator and local keys). */
  created_by: string | null;
}

export interface ProjectsTable {
  id: string;
  organization_id: string;
  name: string;
  domain: string;
  slug: string;
  status: string;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
}

/** A project's access settings (issue 29): names in the clear, values sealed. */
export interface ProjectAccessTable {
  project_id: string;
  names: string;
  sealed: string;
  updated_at: string;
}

export interface RateLimitWindowsTable {
  key_id: string;
  window_start: number; // unix seconds
  count: number;
}

export interface AuditLogTable {
  id: string;
  created_at: string;
  organization_id: string | null;
  key_prefix: string | null;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  /** Set on the rows of refused unauthenticated requests, which are kept one row per burst. */
  client_address: string | null;
  /** How many requests the row stands for: 1, or the size of a burst of refusals. */
  request_count: Generated<number>;
}

export interface CliAuthCodesTable {
  code_hash: string;
  organization_id: string;
  code_challenge: string;
  redirect_uri: string;
  key_name: string;
  scopes: string; // JSON array
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** Who approved it on the consent screen (the minted key's `created_by`). */
  user_id: string | null;
}

export interface RunsTable {
  id: string;
  organization_id: string;
  project_id: string;
  product: string;
  status: string;
  progress_pct: number;
  current_step: string | null;
  url: string;
  local: number; // 0 or 1
  scan_mode: string | null;
  error: string | null;
  credits_spent: number;
  key_prefix: string | null;
  idempotency_key: string | null;
  request_fingerprint: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  score: number | null;
  score_status: string | null;
  severity_counts: string | null; // JSON
  findings_total: number | null;
  coverage: string | null; // JSON
  report: string | null; // JSON report context
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  last_error: string | null;
  /** JSON array: the pages the run found most linked, which monitoring watches (null before 0006). */
  key_pages: string | null;
  /** The host the claim is polite to (runHost): null for a target on this machine, and before 0012. */
  host: string | null;
  /** When its latest attempt was claimed (the host's gap between starts); null before the first. */
  claimed_at: string | null;
}

export interface FindingsTable {
  run_id: string;
  finding_id: string;
  position: number;
  severity: string;
  body: string; // JSON finding
}

export interface EventsTable {
  id: string;
  type: string;
  organization_id: string;
  run_id: string | null;
  created_at: string;
  data: string; // JSON
  /** When the deliverer turned the event into deliveries (null: not yet). */
  dispatched_at: string | null;
}

export interface WebhookEndpointsTable {
  id: string;
  organization_id: string;
  url: string;
  events: string; // JSON array of event types
  description: string | null;
  active: number; // 0 or 1
  /** Why the service disabled it (a person's PATCH leaves it null). */
  disabled_reason: string | null;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: string | null;
  /** Since when every delivery to it has failed (null after a success). */
  failing_since: string | null;
  /** When its earliest pending delivery is due: its queue's head (null: none pending; 0013). */
  next_due_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  organization_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: string; // pending, delivering, delivered, failed
  attempts: number;
  next_attempt_at: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  attempted_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
}

export interface MonitorsTable {
  project_id: string;
  organization_id: string;
  enabled: number; // 0 or 1
  /** The project's own interval; null follows the service's default. */
  interval_minutes: number | null;
  next_check_at: string | null;
  last_checked_at: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  pages: string; // JSON: url -> PageState
  /** The host its checks are polite to (null: a project on this machine; 0013). */
  host: string | null;
  /** 1 when its last check was slow (it went after the others' since); 0013. */
  slow: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface MonitorChecksTable {
  id: string;
  organization_id: string;
  project_id: string;
  url: string;
  /** When the check was made. */
  created_at: string;
  http_status: number | null;
  up: number; // 0 or 1
  kind: string | null;
  changes: string; // JSON array
  error: string | null;
  duration_ms: number;
  event_id: string | null;
}

export interface UsersTable {
  id: string;
  /** Lower case; the sign-in name. */
  email: string;
  name: string;
  /** scrypt (docs/decisions.md, "Accounts"); null for the embedded default's local user, who signs in by link. */
  password_hash: string | null;
  created_at: string;
  updated_at: string;
}

export interface MembershipsTable {
  user_id: string;
  organization_id: string;
  role: string; // owner, member
  created_at: string;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token: a stolen database holds no usable session. */
  token_hash: string;
  user_id: string;
  /** The workspace the session is in (null before the person has one). */
  organization_id: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  /** When the password was last entered again (revealing a key secret needs a recent one). */
  reauthenticated_at: string | null;
}

export interface InvitationsTable {
  token_hash: string;
  id: string;
  organization_id: string;
  role: string;
  invited_by: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  used_by: string | null;
  /** The email address it was made for (lowercase); null on invitations made before issue 23. */
  email: string | null;
}

export interface SignInLinksTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface RunSharesTable {
  token_hash: string;
  run_id: string;
  created_by: string;
  created_at: string;
  revoked_at: string | null;
}

export interface PasskeysTable {
  /** The credential id, base64url. */
  id: string;
  user_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: number | string; // bigint: PostgreSQL answers a string
  transports: string; // JSON array
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface WebauthnChallengesTable {
  id: string;
  challenge: string;
  /** The person registering a passkey; null for a sign-in, whose person is not known yet. */
  user_id: string | null;
  purpose: string; // register, sign-in
  expires_at: string;
}

export interface OauthRecordsTable {
  /** The oidc-provider model: AccessToken, AuthorizationCode, RefreshToken, Client, Grant, Session, Interaction... */
  model: string;
  id: string;
  payload: string; // JSON
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  /** The client the record belongs to (a client's own id); migration 0008. */
  client_id: string | null;
  /** Null: kept until destroyed. */
  expires_at: string | null;
  /** Unix seconds when a one-time record (an authorization code, a rotated refresh token) was used. */
  consumed_at: number | null;
}

export interface SettingsTable {
  name: string;
  value: string;
}

export interface Database {
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  projects: ProjectsTable;
  project_access: ProjectAccessTable;
  rate_limit_windows: RateLimitWindowsTable;
  audit_log: AuditLogTable;
  cli_auth_codes: CliAuthCodesTable;
  settings: SettingsTable;
  runs: RunsTable;
  findings: FindingsTable;
  events: EventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  monitors: MonitorsTable;
  monitor_checks: MonitorChecksTable;
  users: UsersTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  invitations: InvitationsTable;
  sign_in_links: SignInLinksTable;
  run_shares: RunSharesTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  oauth_records: OauthRecordsTable;
}

export type OrganizationRow = Selectable<OrganizationsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type NewProjectRow = Insertable<ProjectsTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
export type RunRow = Selectable<RunsTable>;
export type FindingRow = Selectable<FindingsTable>;
export type EventRow = Selectable<EventsTable>;
// Kept for tables that gain generated columns in later migrations.
export type { Generated };
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
export type MonitorRow = Selectable<MonitorsTable>;
export type MonitorCheckRow = Selectable<MonitorChecksTable>;
export type UserRow = Selectable<UsersTable>;
export type MembershipRow = Selectable<MembershipsTable>;
export type SessionRow = Selectable<SessionsTable>;
export type InvitationRow = Selectable<InvitationsTable>;
export type PasskeyRow = Selectable<PasskeysTable>;

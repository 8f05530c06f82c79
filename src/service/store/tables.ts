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
  source: string; // admin, cli, local
  created_at: string;
  revoked_at: string | null;
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
}

export interface SettingsTable {
  name: string;
  value: string;
}

export interface Database {
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  projects: ProjectsTable;
  rate_limit_windows: RateLimitWindowsTable;
  audit_log: AuditLogTable;
  cli_auth_codes: CliAuthCodesTable;
  settings: SettingsTable;
}

export type OrganizationRow = Selectable<OrganizationsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type NewProjectRow = Insertable<ProjectsTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
// Kept for tables that gain generated columns in later migrations.
export type { Generated };

// The wire contract of the Site Audit Service API v1: every shape, as zod schemas.
export * from './cli-token.ts';
export * from './common.ts';
export * from './comparison.ts';
export * from './errors.ts';
export * from './finding.ts';
export * from './integration.ts';
export * from './key-context.ts';
export * from './monitoring.ts';
export * from './project.ts';
export * from './project-access.ts';
export * from './recheck.ts';
export * from './report.ts';
export * from './run.ts';
export * from './scopes.ts';
export * from './secrets.ts';
export * from './webhook.ts';
export * from './words.ts';

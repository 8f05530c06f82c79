// spec 2.11, 4.9 and 4.10: connected-signal integrations and the signals discovery surface.
import { z } from 'zod';
import { Uuid } from './common.ts';
import { SourceCoverage } from './report.ts';

export const PROVIDERS = [
  'google_analytics',
  'search_console',
  'google_tag_manager',
  'google_ads',
  'meta_ads',
  'linkedin_ads',
  'hubspot',
] as const;
export const Provider = z.enum(PROVIDERS);
export type Provider = z.infer<typeof Provider>;

export const Integration = z.object({
  provider: Provider,
  label: z.string(),
  phase: z.enum(['planned', 'beta', 'available']),
  access: z.literal('read_only'),
  connected: z.boolean(),
  readScopeSummary: z.string().optional(),
  valueSummary: z.string().optional(),
});
export type Integration = z.infer<typeof Integration>;

export const IntegrationsResponse = z.object({
  projectId: Uuid,
  integrations: z.array(Integration),
  note: z.string(),
});

export const SignalsResponse = z.object({
  projectId: Uuid,
  sourceCoverage: SourceCoverage,
  connectedSources: z.array(z.looseObject({})),
  signals: z.array(z.looseObject({})),
  note: z.string(),
});

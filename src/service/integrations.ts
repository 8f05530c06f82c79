// spec 2.11: the connected-signal providers. Until the hosted connection layer exists, every one is
// planned and not connected.
import type { Integration } from '../contract/index.ts';

export const INTEGRATIONS: readonly Integration[] = [
  {
    provider: 'google_analytics',
    label: 'Google Analytics 4',
    readScopeSummary: 'Read-only traffic, conversion and channel reports',
    valueSummary: 'Confirms measurement with real sessions and conversions',
  },
  {
    provider: 'search_console',
    label: 'Google Search Console',
    readScopeSummary: 'Read-only search performance and index coverage',
    valueSummary: 'Shows which pages are indexed and what queries find them',
  },
  {
    provider: 'google_tag_manager',
    label: 'Google Tag Manager',
    readScopeSummary: 'Read-only container, tag and trigger configuration',
    valueSummary: 'Verifies tags that only fire after rendering',
  },
  {
    provider: 'google_ads',
    label: 'Google Ads',
    readScopeSummary: 'Read-only campaign and conversion-action settings',
    valueSummary: 'Checks that ad conversions are tracked',
  },
  {
    provider: 'meta_ads',
    label: 'Meta Ads',
    readScopeSummary: 'Read-only pixel and conversions API status',
    valueSummary: 'Checks pixel health and event matching',
  },
  {
    provider: 'linkedin_ads',
    label: 'LinkedIn Ads',
    readScopeSummary: 'Read-only Insight Tag and conversion status',
    valueSummary: 'Checks that B2B conversions are measured',
  },
  {
    provider: 'hubspot',
    label: 'HubSpot',
    readScopeSummary: 'Read-only forms and lifecycle-stage counts',
    valueSummary: 'Connects form fills to pipeline outcomes',
  },
].map((entry) => ({ ...entry, phase: 'planned', access: 'read_only', connected: false }) as Integration);

export const INTEGRATIONS_NOTE =
  'Connected signals are planned: every provider reports connected=false until the hosted, read-only connection layer launches. Audits use public signals only.';

export const SIGNALS_NOTE =
  'Coverage is public_only: audits read what the public HTML, headers and DNS show. Connected signals will appear here once providers can be connected.';

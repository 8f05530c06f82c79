// The dashboard's words for what the API names in codes: dates as a person reads them (the ISO
// instant kept in a <time datetime> attribute), run statuses, categories, stages and what a local
// scan leaves out. Every page of the dashboard says these things through this file.
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { Category, MonitorKind, PageChange, Stage } from '../../contract/index.ts';
import { dateText, relativeText } from '../../contract/words.ts';

export {
  counted,
  dateText,
  PRODUCT_LABEL,
  productLabel,
  RUN_STATUS_TEXT,
  relativeText,
  runStatusText,
} from '../../contract/words.ts';

export const CATEGORY_TEXT: Record<Category, string> = {
  discoverability: 'Discoverability',
  structured_data: 'Structured data',
  metadata: 'Metadata',
  content_structure: 'Content structure',
  accessibility: 'Accessibility',
  answerability: 'Answerability',
  agent_operability: 'Agent operability',
  performance: 'Performance',
  security: 'Security',
  general: 'General',
  findability: 'Findability',
  measurement: 'Measurement',
  conversion_path: 'Conversion path',
  offer_clarity: 'Offer clarity',
  trust_proof: 'Trust and proof',
  schema_metadata: 'Schema metadata',
  social_preview: 'Social preview',
  performance_ux: 'Performance and experience',
  consent_privacy_signal: 'Consent and privacy',
  connected_account: 'Connected accounts',
};

export const categoryText = (category: string) => CATEGORY_TEXT[category as Category] ?? category.replaceAll('_', ' ');

export const STAGE_TEXT: Record<Stage, string> = {
  find: 'Find',
  trust: 'Trust',
  act: 'Act',
  measure: 'Measure',
  improve: 'Improve',
};

export const stageText = (stage: string) => STAGE_TEXT[stage as Stage] ?? stage;

/** A stage's or a score's status. */
export const scoreStatusText = (status: string) =>
  status === 'unverified' ? 'not verified' : status === 'scored' ? 'scored' : status;

/** A check row's result, as its badge says it (the badge's class keeps the code). */
export const CHECK_STATUS_TEXT: Record<string, string> = {
  pass: 'passed',
  fail: 'failed',
  info: 'for information',
  unverified: 'not verified',
};

export const checkStatusText = (status: string) => CHECK_STATUS_TEXT[status] ?? status;

export const FINDING_STATUS_TEXT: Record<string, string> = {
  open: 'open',
  acknowledged: 'acknowledged',
  resolved: 'resolved',
  wont_fix: 'won’t fix',
};

export const MONITOR_STATE_TEXT = { up: 'up', down: 'down', unknown: 'not checked yet' } as const;

export const MONITOR_KIND_TEXT: Record<MonitorKind, string> = {
  changed: 'changed',
  failed: 'failed',
  recovered: 'recovered',
};

export const PAGE_CHANGE_TEXT: Record<PageChange, string> = {
  status: 'status code',
  final_url: 'final address',
  title: 'title',
  description: 'description',
  canonical: 'canonical link',
  robots: 'robots rules',
  headings: 'headings',
  text: 'text',
};

export const pageChangeText = (change: string) => PAGE_CHANGE_TEXT[change as PageChange] ?? change;

/** A <time> element: the date in words, the ISO instant in its attribute, and optionally how long ago. */
export function when(
  iso: string,
  options: { relative?: boolean; now?: Date } = {},
): HtmlEscapedString | Promise<HtmlEscapedString> {
  const relative = options.relative ? relativeText(iso, options.now) : '';
  return html`<time datetime="${iso}">${dateText(iso)}</time>${relative ? html` <span class="muted">(${relative})</span>` : ''}`;
}

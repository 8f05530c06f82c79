// Words for people where the API speaks in codes, shared by the dashboard and the command line:
// products, run statuses, and instants as a person reads them (issue 24).
import type { Product, RunStatus } from './run.ts';

export const PRODUCT_LABEL: Record<Product, string> = {
  ai_readiness: 'AI readiness',
  marketing_signal: 'Marketing signal',
  website_security: 'Website security',
};

export const productLabel = (product: string) => PRODUCT_LABEL[product as Product] ?? product;

/** How a run stands or ended, for a person: never `failed_auto_credit`. */
export const RUN_STATUS_TEXT: Record<RunStatus, string> = {
  pending: 'Waiting to start',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  failed_auto_credit: 'Could not run — credits returned',
  refunded: 'Cancelled — credits returned',
};

export const runStatusText = (status: string) => RUN_STATUS_TEXT[status as RunStatus] ?? status.replaceAll('_', ' ');

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/**
 * An instant as a person reads it: `26 Nov 2026, 10:41 UTC`. The pages run no script, so the reader's
 * own time zone is unknown: UTC, said so. Fixed month names, not Intl's (they differ across ICU versions).
 */
export function dateText(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}, ${two(at.getUTCHours())}:${two(at.getUTCMinutes())} UTC`;
}

/** A count with its noun: "1 run", "2 runs"; `many` for the irregular ones ("1 batch", "2 batches"). */
export const counted = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** How long ago (or how soon) `iso` is from `now`: `3 hours ago`, `in 5 minutes`, `just now`. */
export function relativeText(iso: string, now: Date = new Date()): string {
  const ms = Date.parse(iso) - now.getTime();
  if (Number.isNaN(ms)) return '';
  const seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds < 45) return 'just now';
  const units: Array<[string, number]> = [
    ['year', 365 * 86_400],
    ['month', 30 * 86_400],
    ['week', 7 * 86_400],
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
  ];
  const [unit, size] = units.find(([, size]) => seconds >= size) ?? ['minute', 60];
  const count = Math.max(1, Math.round(seconds / size));
  const amount = counted(count, unit);
  return ms < 0 ? `${amount} ago` : `in ${amount}`;
}

// The runs of one `siteaudit audit` call: one per product, started together, watched to their end,
// then read whole (report, every finding) and compared with their baseline when one was asked for.
import { randomUUID } from 'node:crypto';
import { ApiClientError, type SiteAuditClient } from '../../client/index.ts';
import { PRODUCT_LABEL, type Product, type Run, TERMINAL_RUN_STATUSES } from '../../contract/index.ts';
import { CliError } from '../options.ts';
import { runEndedInWords } from '../render.ts';
import type { ProductAudit } from './audit-result.ts';
import { allFindings, type BaselineRequest, latestBaseline, readGivenBaselines } from './baselines.ts';
import { type ComparedRun, compareRuns, findingKey, instancesOf } from './compare.ts';

const SCAN_MODES: Record<Product, string | undefined> = {
  ai_readiness: undefined,
  marketing_signal: 'paid_marketing_signal',
  website_security: 'paid_website_security',
};
const POLL_MS = 1000;

/** The host (with port) a URL or bare host names. */
export function domainOf(target: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(target)?.[1]?.toLowerCase();
  // Audits are of web sites: another scheme is a mistake to point out, not one to mend silently.
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https')
    throw new CliError('invalid_argument', `only http and https sites are audited, not ${scheme}: ${target}`);
  const withScheme = scheme ? target : `https://${target}`;
  try {
    return new URL(withScheme).host;
  } catch {
    throw new CliError('invalid_argument', `not a URL or host name: ${target}`);
  }
}

export interface AuditRequest {
  target: string;
  products: readonly Product[];
  baseline?: BaselineRequest;
  log: (line: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts a run of the product. When another audit of the site is in flight (another CI job, a
 * person, the monitor), waits for it to end and starts then, rather than failing the job.
 */
async function startWhenFree(client: SiteAuditClient, projectId: string, product: Product, log: AuditRequest['log']) {
  const scanMode = SCAN_MODES[product];
  for (;;) {
    try {
      return await client.runs.start({ projectId, ...(scanMode ? { scanMode } : {}) }, randomUUID());
    } catch (error) {
      const other = error instanceof ApiClientError && error.code === 'run_in_flight' ? error.details.runId : undefined;
      if (typeof other !== 'string') throw error;
      log(`another audit of this site is in flight (run ${other}); waiting for it to end`);
      let run = await client.runs.get(other);
      while (!TERMINAL_RUN_STATUSES.includes(run.status)) {
        await sleep(POLL_MS);
        run = await client.runs.get(other);
      }
    }
  }
}

function compareWith(audit: ProductAudit, baseline: ComparedRun): void {
  audit.comparison = compareRuns({ run: audit.run, findings: audit.findings }, baseline);
  audit.baselineInstances = new Map(baseline.findings.map((finding) => [findingKey(finding), instancesOf(finding)]));
}

/** Every product's audit of the target, in the order asked; a run that did not complete is an error. */
export async function auditProducts(client: SiteAuditClient, request: AuditRequest): Promise<ProductAudit[]> {
  const { log } = request;
  const given =
    request.baseline?.kind === 'given'
      ? await readGivenBaselines(client, request.baseline, request.products)
      : undefined;
  const project = await client.projects.create({ domain: domainOf(request.target) });
  const several = request.products.length > 1;
  const runs: Run[] = [];
  // One run at a time: a project has at most one in flight (409 run_in_flight).
  for (const product of request.products) {
    let run = await startWhenFree(client, project.projectId, product, log);
    log(`auditing ${run.url} (${product}), run ${run.runId}`);
    let last = '';
    while (!TERMINAL_RUN_STATUSES.includes(run.status)) {
      await sleep(POLL_MS);
      run = await client.runs.get(run.runId);
      const line = `  ${several ? `${PRODUCT_LABEL[product]}: ` : ''}${run.progressPct}% ${run.currentStep ?? run.status}`;
      if (line !== last) log(line);
      last = line;
    }
    // A run that did not complete ends the call: its gate cannot be judged.
    if (run.status !== 'completed') throw new CliError('run_failed', runEndedInWords(run));
    runs.push(run);
  }

  const audits: ProductAudit[] = [];
  for (const run of runs) {
    const audit: ProductAudit = {
      product: run.product,
      run,
      report: await client.runs.report(run.runId),
      findings: await allFindings(client, run.runId),
    };
    if (request.baseline) {
      const baseline = given ? given.get(run.product) : await latestBaseline(client, run);
      if (baseline) compareWith(audit, baseline);
      else {
        // Nothing to compare with (the site's first audit, or no baseline given for this product):
        // every finding is new, and said so.
        audit.noBaseline = true;
        audit.noBaselineReason = given
          ? 'no baseline given for this product'
          : 'no earlier completed audit of this site';
        log(`${PRODUCT_LABEL[run.product]}: ${audit.noBaselineReason}; every finding counts as new`);
      }
    }
    audits.push(audit);
  }
  return audits;
}

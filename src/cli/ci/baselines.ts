// `--baseline` (issue 27): `latest` (each product's last completed audit of the site), run ids, or
// the JSON of an earlier audit (`--format json`, such as the main branch's artifact). Run ids and
// files are read and checked before any audit starts, so a wrong one costs no credit.
import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { ApiClientError, type SiteAuditClient } from '../../client/index.ts';
import { Finding, type Product, Run, Uuid } from '../../contract/index.ts';
import { CliError } from '../options.ts';
import type { ComparedRun } from './compare.ts';

export type BaselineRequest =
  | { kind: 'latest' }
  /** Run ids to read from the service, and files already read (by path). */
  | { kind: 'given'; values: readonly string[]; files: ReadonlyMap<string, ComparedRun[]> };

/** The flags as given, before anything is read. */
export function baselineRequest(values: readonly string[]): BaselineRequest | undefined {
  if (values.length === 0) return undefined;
  if (values.some((value) => value === 'latest' || value === 'previous')) {
    if (values.length > 1)
      throw new CliError(
        'invalid_argument',
        '--baseline latest compares every product with its own last audit: give it once',
      );
    return { kind: 'latest' };
  }
  // Each value is a run id or a file, and a file is read now: a wrong one is told before a service
  // starts or a credit is spent.
  const files = new Map<string, ComparedRun[]>();
  for (const value of values) {
    if (Uuid.safeParse(value).success) continue;
    if (statSync(value, { throwIfNoEntry: false })?.isFile() !== true)
      throw new CliError(
        'invalid_argument',
        `--baseline ${value} is neither latest, a run id nor a file: give one of these (a file is the output of siteaudit audit --format json)`,
      );
    files.set(value, fromFile(value));
  }
  return { kind: 'given', values, files };
}

export async function allFindings(client: SiteAuditClient, runId: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.runs.findings(runId, { limit: 100, ...(cursor ? { cursor } : {}) });
    findings.push(...page.findings);
    cursor = page.pagination.nextCursor ?? undefined;
  } while (cursor);
  return findings;
}

// What an earlier `--format json` wrote: its audits, or (a one-product file of before issue 27) the top.
const AuditFile = z.union([
  z.object({ audits: z.array(z.object({ run: Run, findings: z.array(Finding) })).min(1) }),
  z.object({ run: Run, findings: z.array(Finding) }).transform((one) => ({ audits: [one] })),
]);

function fromFile(path: string): ComparedRun[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const why =
      error instanceof SyntaxError ? 'is not JSON' : `cannot be read (${(error as NodeJS.ErrnoException).code})`;
    throw new CliError(
      'invalid_argument',
      `--baseline ${path} ${why}: give the output of siteaudit audit --format json`,
    );
  }
  const parsed = AuditFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` (at ${issue.path.join('.')}: ${issue.message})` : '';
    throw new CliError(
      'invalid_argument',
      `--baseline ${path} is not the JSON of a siteaudit audit, {audits: [{run, findings}]} as siteaudit audit --format json writes it${where}`,
    );
  }
  return parsed.data.audits;
}

async function fromRunId(client: SiteAuditClient, id: string): Promise<ComparedRun> {
  let run: Run;
  try {
    run = await client.runs.get(id);
  } catch (error) {
    if (error instanceof ApiClientError && error.status === 404)
      throw new CliError('invalid_argument', `--baseline ${id}: no such run for this key`);
    throw error;
  }
  if (run.status !== 'completed')
    throw new CliError('invalid_argument', `--baseline ${id} is a run that did not complete (${run.status})`);
  return { run, findings: await allFindings(client, run.runId) };
}

/** The given baselines by product, read and checked now: each a completed run of a product of the call. */
export async function readGivenBaselines(
  client: SiteAuditClient,
  request: Extract<BaselineRequest, { kind: 'given' }>,
  products: readonly Product[],
): Promise<Map<Product, ComparedRun>> {
  const byProduct = new Map<Product, ComparedRun>();
  for (const value of request.values) {
    const file = request.files.get(value);
    const isFile = file !== undefined;
    const runs = file ?? [await fromRunId(client, value)];
    for (const baseline of runs) {
      const { product } = baseline.run;
      // A file may hold products this call does not audit; a run id names one it must.
      if (!products.includes(product)) {
        if (isFile) continue;
        throw new CliError(
          'invalid_argument',
          `--baseline ${value} is a ${product} run, and this call does not audit ${product}`,
        );
      }
      if (baseline.run.status !== 'completed')
        throw new CliError('invalid_argument', `--baseline ${value}: its ${product} run did not complete`);
      if (byProduct.has(product))
        throw new CliError('invalid_argument', `two baselines of ${product}: give one per product`);
      byProduct.set(product, baseline);
    }
  }
  return byProduct;
}

/** The site's last completed run of the product before `run` (the service picks it), or undefined. */
export async function latestBaseline(client: SiteAuditClient, run: Run): Promise<ComparedRun | undefined> {
  let baselineRunId: string;
  try {
    baselineRunId = (await client.runs.compare(run.runId, 'previous')).baselineRunId;
  } catch (error) {
    if (error instanceof ApiClientError && error.code === 'no_baseline') return undefined;
    throw error;
  }
  return { run: await client.runs.get(baselineRunId), findings: await allFindings(client, baselineRunId) };
}

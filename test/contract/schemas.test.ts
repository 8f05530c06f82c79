import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AiReadinessReport,
  CheckRow,
  CliTokenRequest,
  ErrorEnvelope,
  Finding,
  Integration,
  KeyContext,
  LimitQuery,
  MarketingSignalReport,
  Project,
  RestoreProjectBody,
  Run,
  RunEventData,
  Scope,
  SeverityCounts,
  WebhookEvent,
  WebsiteSecurityReport,
} from '../../src/contract/index.ts';
import * as fx from './fixtures.ts';

type Mutation = [string, (value: Record<string, unknown>) => void];

/** Deep copy, then apply the mutation to it. */
function broken<T>(value: T, mutate: (v: Record<string, unknown>) => void): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  mutate(copy);
  return copy;
}

function refuses(schema: z.ZodType, valid: unknown, mutations: Mutation[]) {
  it('accepts the valid payload', () => {
    const result = schema.safeParse(valid);
    expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
  });
  it.each(mutations)('refuses %s', (_name, mutate) => {
    expect(schema.safeParse(broken(valid, mutate)).success).toBe(false);
  });
}

describe('error envelope (spec 2.1)', () => {
  refuses(ErrorEnvelope, { error: { code: 'not_found', message: 'x', extra: 1 } }, [
    ['a missing code', (v) => delete (v.error as Record<string, unknown>).code],
    ['a missing message', (v) => delete (v.error as Record<string, unknown>).message],
    ['a non-object error', (v) => (v.error = 'boom')],
  ]);
});

describe('key context (spec 2.2)', () => {
  refuses(KeyContext, fx.keyContext, [
    ['a key prefix without svc_', (v) => (v.keyPrefix = 'abc')],
    ['a non-uuid organizationId', (v) => (v.organizationId = 'org-1')],
    ['an unknown scope', (v) => (v.scopes = ['projects:read', 'admin'])],
    ['apiVersion v2', (v) => (v.apiVersion = 'v2')],
    ['contractVersion 1', (v) => (v.contractVersion = 1)],
    ['creditCosts without marketing', (v) => delete (v.creditCosts as Record<string, unknown>).marketing],
    ['fractional credits', (v) => (v.credits = { remaining: 1.5, monthlyIncluded: 0 })],
    ['a missing latestCliVersion', (v) => delete v.latestCliVersion],
  ]);
  it('allows plan and credits to be null or absent (best-effort billing)', () => {
    expect(KeyContext.safeParse({ ...fx.keyContext, plan: null, credits: null }).success).toBe(true);
    const { plan: _plan, credits: _credits, ...rest } = fx.keyContext;
    expect(KeyContext.safeParse(rest).success).toBe(true);
  });
});

describe('project (spec 2.3)', () => {
  refuses(Project, fx.project, [
    ['an unknown status', (v) => (v.status = 'deleted')],
    ['a non-date createdAt', (v) => (v.createdAt = 'yesterday')],
    ['a missing slug', (v) => delete v.slug],
    ['a string idempotent', (v) => (v.idempotent = 'yes')],
  ]);
  it('takes restore bodies that are exactly {status: active}', () => {
    expect(RestoreProjectBody.safeParse({ status: 'active' }).success).toBe(true);
    expect(RestoreProjectBody.safeParse({ status: 'paused' }).success).toBe(false);
    expect(RestoreProjectBody.safeParse({ status: 'active', name: 'x' }).success).toBe(false);
    expect(RestoreProjectBody.safeParse({}).success).toBe(false);
  });
});

describe('run (spec 2.4)', () => {
  refuses(Run, fx.completedRun, [
    ['schemaVersion 1', (v) => (v.schemaVersion = 1)],
    ['an unknown product', (v) => (v.product = 'seo')],
    ['an unknown status', (v) => (v.status = 'done')],
    ['progressPct over 100', (v) => (v.progressPct = 101)],
    ['a score over 100', (v) => (v.score = 101)],
    ['a score while unverified', (v) => (v.scoreStatus = 'unverified')],
    ['a score before completion', (v) => (v.status = 'running')],
    ['a scoreStatus other than unverified', (v) => (v.scoreStatus = 'verified')],
    ['a coverage mode other than local_on_page', (v) => (v.coverage = { mode: 'full', notEvaluated: [] })],
    [
      'a coverage that evaluated more checks than a full scan has',
      (v) => (v.coverage = { mode: 'local_on_page', notEvaluated: ['dns'], evaluatedChecks: 37, totalChecks: 36 }),
    ],
    [
      'a coverage with a fractional count',
      (v) => (v.coverage = { mode: 'local_on_page', notEvaluated: ['dns'], evaluatedChecks: 1.5, totalChecks: 36 }),
    ],
    ['a missing humanUrl', (v) => delete v.humanUrl],
  ]);
  it('accepts an in-flight run with null score state and a local coverage', () => {
    const run = {
      ...fx.completedRun,
      status: 'running',
      score: null,
      severityCounts: null,
      findingsTotal: null,
      coverage: { mode: 'local_on_page', notEvaluated: ['dns', 'tls'] },
    };
    expect(Run.safeParse(run).success).toBe(true);
  });
  // Issue 24: the counts a partial score stands on; runs stored before them still parse.
  it('accepts a local coverage with and without the counts of checks evaluated', () => {
    const coverage = { mode: 'local_on_page', notEvaluated: ['dns', 'tls'], evaluatedChecks: 4, totalChecks: 36 };
    expect(Run.parse({ ...fx.completedRun, coverage }).coverage).toEqual(coverage);
    const { evaluatedChecks: _e, totalChecks: _t, ...stored } = coverage;
    expect(Run.safeParse({ ...fx.completedRun, coverage: stored }).success).toBe(true);
    expect(AiReadinessReport.safeParse({ ...fx.aiReadinessReport, coverage }).success).toBe(true);
  });
});

describe('finding (spec 2.5)', () => {
  refuses(Finding, fx.finding, [
    ['an id without f_', (v) => (v.findingId = '0a1b2c')],
    ['an id with non-hex characters', (v) => (v.findingId = 'f_xyz')],
    ['an unknown category', (v) => (v.category = 'seo')],
    ['an unknown severity', (v) => (v.severity = 'urgent')],
    ['an unknown confidence', (v) => (v.confidence = 'certain')],
    ['an unknown evidence type', (v) => (v.evidence = [{ type: 'video', summary: 'x' }])],
    ['an agent action other than remediation', (v) => (v.agentActions = [{ type: 'deploy', description: 'x' }])],
    ['an unknown stage', (v) => (v.stage = 'convert')],
    ['an unknown status', (v) => (v.status = 'fixed')],
  ]);
});

describe('severity counts (spec 2.6) and check rows (spec 2.7)', () => {
  refuses(SeverityCounts, fx.severityCounts, [
    ['a missing severity', (v) => delete v.info],
    ['a negative count', (v) => (v.high = -1)],
    ['a fractional count', (v) => (v.low = 0.5)],
  ]);
  refuses(CheckRow, { id: 'x', label: 'X', category: 'metadata', status: 'info', detail: 'd' }, [
    ['an unknown status', (v) => (v.status = 'warn')],
    ['an unknown category', (v) => (v.category = 'seo')],
  ]);
});

describe('ai_readiness report context (spec 2.8)', () => {
  refuses(AiReadinessReport, fx.aiReadinessReport, [
    ['a missing foundation', (v) => delete v.foundation],
    ['foundation without llmsTxt', (v) => delete (v.foundation as Record<string, unknown>).llmsTxt],
    ['a null score', (v) => (v.score = null)],
    ['more than 10 top findings', (v) => (v.topFindings = Array(11).fill((v.topFindings as unknown[])[0]))],
    ['a negative pagesCrawled', (v) => (v.pagesCrawled = -1)],
    ['a non-URL url', (v) => (v.url = 'example')],
    ['a negative costUsd', (v) => (v.costUsd = -1)],
    ['scoreStatus verified', (v) => (v.scoreStatus = 'verified')],
    ['checks without rows', (v) => delete (v.checks as Record<string, unknown>).rows],
    ['another product', (v) => (v.product = 'marketing_signal')],
  ]);
});

describe('marketing_signal report context (spec 2.9)', () => {
  refuses(MarketingSignalReport, fx.marketingReport, [
    [
      'a top finding without stage',
      (v) => delete ((v.topFindings as Record<string, unknown>[])[0] as Record<string, unknown>).stage,
    ],
    ['a missing stage', (v) => (v.stageScores = (v.stageScores as unknown[]).slice(0, 4))],
    [
      'a duplicated stage',
      (v) => (((v.stageScores as Record<string, unknown>[])[1] as Record<string, unknown>).stage = 'find'),
    ],
    [
      'high measure confidence under public_only',
      (v) => (((v.stageScores as Record<string, unknown>[])[3] as Record<string, unknown>).confidence = 'high'),
    ],
    ['an unknown sourceCoverage', (v) => (v.sourceCoverage = 'private')],
    [
      'a connected source with bad freshness',
      (v) => (v.connectedSources = [{ provider: 'x', account_label: 'y', last_synced_at: null, freshness: 'old' }]),
    ],
    [
      'a stage status other than scored or unverified',
      (v) => (((v.stageScores as Record<string, unknown>[])[0] as Record<string, unknown>).status = 'partial'),
    ],
    ['a missing templatesAudited', (v) => delete v.templatesAudited],
  ]);
  it('allows high measure confidence under connected coverage', () => {
    const report = structuredClone(fx.marketingReport) as Record<string, unknown>;
    report.sourceCoverage = 'connected';
    ((report.stageScores as Record<string, unknown>[])[3] as Record<string, unknown>).confidence = 'high';
    expect(MarketingSignalReport.safeParse(report).success).toBe(true);
  });
});

describe('website_security report context (spec 2.10)', () => {
  refuses(WebsiteSecurityReport, fx.securityReport, [
    [
      'a top finding outside security',
      (v) => (((v.topFindings as Record<string, unknown>[])[0] as Record<string, unknown>).category = 'metadata'),
    ],
    [
      'a top finding without pillar',
      (v) => delete ((v.topFindings as Record<string, unknown>[])[0] as Record<string, unknown>).pillar,
    ],
    [
      'an unknown pillar',
      (v) => (((v.pillars as Record<string, unknown>[])[0] as Record<string, unknown>).key = 'firewall'),
    ],
    [
      'a pillar weight over 100',
      (v) => (((v.pillars as Record<string, unknown>[])[0] as Record<string, unknown>).weight = 101),
    ],
    ['checks as a ledger object', (v) => (v.checks = { pass: 0, fail: 0, info: 0, unverified: 0, rows: [] })],
    ['tls without valid', (v) => delete (v.tls as Record<string, unknown>).valid],
    ['dns without hasCaa', (v) => delete (v.dns as Record<string, unknown>).hasCaa],
    ['a missing scope', (v) => delete v.scope],
  ]);
  it('allows a null pillar score (only unverified checks)', () => {
    const report = structuredClone(fx.securityReport) as Record<string, unknown>;
    ((report.pillars as Record<string, unknown>[])[0] as Record<string, unknown>).score = null;
    expect(WebsiteSecurityReport.safeParse(report).success).toBe(true);
  });
});

describe('integration status (spec 2.11)', () => {
  refuses(Integration, fx.integration, [
    ['an unknown provider', (v) => (v.provider = 'salesforce')],
    ['an unknown phase', (v) => (v.phase = 'alpha')],
    ['write access', (v) => (v.access = 'read_write')],
  ]);
});

describe('webhook event (spec 6.2, 6.3)', () => {
  refuses(WebhookEvent, fx.webhookEvent, [
    ['an id without evt_', (v) => (v.id = 'abc')],
    ['an unknown type', (v) => (v.type = 'run.started')],
    ['a missing data', (v) => delete v.data],
  ]);
  refuses(RunEventData, fx.webhookEvent.data, [
    ['a status other than completed or failed', (v) => (v.status = 'running')],
    ['a missing apiUrl', (v) => delete v.apiUrl],
    ['a non-URL humanUrl', (v) => (v.humanUrl = 'dashboard')],
    ['a missing error field', (v) => delete v.error],
  ]);
});

describe('scopes (spec 5.3) and query parameters (spec 8)', () => {
  it('knows exactly the eight scopes', () => {
    expect(Scope.options).toHaveLength(8);
    expect(Scope.safeParse('admin').success).toBe(false);
  });
  it.each([
    ['1', 1],
    ['100', 100],
    ['020', 20],
  ])('reads limit %s as %d', (text, value) => {
    expect(LimitQuery.parse(text)).toBe(value);
  });
  it.each(['0', '101', '-1', '1.5', '1e2', 'ten', '', ' 5'])('refuses limit %j', (text) => {
    expect(LimitQuery.safeParse(text).success).toBe(false);
  });
  it('requires all three token-exchange fields', () => {
    const ok = { code: 'c', code_verifier: 'v', redirect_uri: 'http://127.0.0.1:1/cb' };
    expect(CliTokenRequest.safeParse(ok).success).toBe(true);
    for (const field of Object.keys(ok)) {
      expect(CliTokenRequest.safeParse({ ...ok, [field]: undefined }).success).toBe(false);
    }
  });
});

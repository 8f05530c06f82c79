// From an engine outcome to the wire contract: findings with deterministic ids (spec 2.5) and the
// report context of the run's product (spec 2.8), both parsed by the contract before they leave.
import { createHash } from 'node:crypto';
import {
  AiReadinessReport,
  type Finding,
  Finding as FindingSchema,
  MarketingSignalReport,
  type ReportContext,
  TOP_FINDINGS_MAX,
  WebsiteSecurityReport,
} from '../contract/index.ts';
import type { Evidence } from './checks.ts';
import { elementFingerprint, findingFingerprint, pageFingerprint } from './fingerprint.ts';
import type { AuditOutcome, EngineFinding } from './outcome.ts';
import type { AiReadinessDetails } from './products/ai-readiness.ts';
import type { MarketingSignalDetails } from './products/marketing-signal.ts';
import type { WebsiteSecurityDetails } from './products/website-security.ts';

export interface RunMeta {
  runId: string;
  projectId: string | null;
  scanMode: string | null;
  createdAt: string;
  completedAt: string;
  /** Dashboard address of the run; findings live under it. */
  humanUrl: string;
}

/** spec 2.5: `f_` plus hex, deterministic and stable for a given run (one finding per check). */
export function findingId(runId: string, checkId: string): string {
  return `f_${createHash('sha256').update(`${runId}:${checkId}`).digest('hex').slice(0, 16)}`;
}

/** Each page and element of a finding's evidence with its fingerprint (fingerprint.ts). */
function fingerprinted(f: EngineFinding): Evidence[] {
  return f.evidence.map((item) => {
    const url = item.url;
    if (!url) return item;
    return {
      ...item,
      fingerprint: pageFingerprint(f.checkId, url),
      ...(item.elements
        ? { elements: item.elements.map((e) => ({ ...e, fingerprint: elementFingerprint(f.checkId, url, e) })) }
        : {}),
    };
  });
}

export function toFindings(outcome: AuditOutcome, meta: RunMeta): Finding[] {
  return outcome.findings.map((f: EngineFinding) => {
    const id = findingId(meta.runId, f.checkId);
    return FindingSchema.parse({
      findingId: id,
      fingerprint: findingFingerprint(f.checkId, outcome.startUrl),
      checkId: f.checkId,
      ...(f.alsoChecks?.length ? { alsoChecks: f.alsoChecks } : {}),
      runId: meta.runId,
      projectId: meta.projectId,
      category: f.category,
      status: 'open',
      severity: f.severity,
      confidence: f.confidence,
      title: f.title,
      detail: f.detail,
      evidence: fingerprinted(f),
      affectedUrls: f.affectedUrls,
      remediation: f.remediation,
      agentActions: [
        { type: 'remediation', description: f.agentAction },
        ...(f.suggestions ?? []).map((s) => ({
          type: 'remediation' as const,
          description: `Suggestion to review (${s.label}, for ${s.target}):\n${s.content}`,
          suggestion: { ...s, review: true as const },
        })),
      ],
      humanUrl: `${meta.humanUrl}/findings/${id}`,
      ...(f.references.length > 0 ? { references: f.references } : {}),
      verify: f.verify,
      source: { scanMode: meta.scanMode, model: null },
      createdAt: meta.completedAt,
      updatedAt: meta.completedAt,
      ...(f.stage ? { stage: f.stage } : {}),
    });
  });
}

function checksLedger(outcome: AuditOutcome) {
  const count = (status: string) => outcome.checks.filter((c) => c.status === status).length;
  return {
    pass: count('pass'),
    fail: count('fail'),
    info: count('info'),
    unverified: count('unverified'),
    rows: outcome.checks.map((c) => ({
      id: c.id,
      label: c.label,
      category: c.category,
      status: c.status,
      detail: c.detail,
    })),
  };
}

function commonFields(outcome: AuditOutcome, meta: RunMeta, findings: Finding[]) {
  return {
    schemaVersion: 2 as const,
    runId: meta.runId,
    projectId: meta.projectId,
    url: outcome.startUrl,
    score: outcome.score,
    scoreLabel: outcome.scoreLabel,
    execSummary: outcome.execSummary,
    severityCounts: outcome.severityCounts,
    findingsTotal: findings.length,
    scanMode: meta.scanMode,
    model: null,
    costUsd: 0,
    createdAt: meta.createdAt,
    completedAt: meta.completedAt,
    humanUrl: meta.humanUrl,
    ...(outcome.scoreStatus ? { scoreStatus: outcome.scoreStatus } : {}),
    coverage: outcome.coverage,
    ...(outcome.rendering ? { rendering: outcome.rendering } : {}),
  };
}

const topFindings = (findings: Finding[]) =>
  findings.slice(0, TOP_FINDINGS_MAX).map((f) => ({
    findingId: f.findingId,
    severity: f.severity,
    category: f.category,
    title: f.title,
    remediation: f.remediation,
    affectedUrls: f.affectedUrls,
  }));

export function toReportContext(outcome: AuditOutcome, meta: RunMeta, findings: Finding[]): ReportContext {
  switch (outcome.product) {
    case 'ai_readiness': {
      const details = outcome.details as AiReadinessDetails;
      return AiReadinessReport.parse({
        ...commonFields(outcome, meta, findings),
        product: 'ai_readiness',
        topFindings: topFindings(findings),
        foundation: details.foundation,
        pagesCrawled: outcome.pagesCrawled,
        checks: checksLedger(outcome),
        ...(details.agentViews ? { agentViews: details.agentViews } : {}),
      });
    }
    case 'marketing_signal': {
      const details = outcome.details as MarketingSignalDetails;
      const stageOf = new Map(outcome.findings.map((f) => [findingId(meta.runId, f.checkId), f.stage]));
      return MarketingSignalReport.parse({
        ...commonFields(outcome, meta, findings),
        product: 'marketing_signal',
        topFindings: topFindings(findings).map((f) => ({ ...f, stage: stageOf.get(f.findingId) })),
        pagesCrawled: outcome.pagesCrawled,
        stageScores: details.stageScores,
        sourceCoverage: details.sourceCoverage,
        connectedSources: details.connectedSources,
        templatesAudited: details.templatesAudited,
        siteKind: {
          kind: details.siteKind.kind,
          // The signals are bounded where they are read (site-kind.ts); the contract holds them to it.
          signals: details.siteKind.signals.slice(0, 10).map((signal) => signal.slice(0, 300)),
        },
        checks: checksLedger(outcome),
      });
    }
    case 'website_security': {
      const details = outcome.details as WebsiteSecurityDetails;
      const pillarOf = new Map(outcome.findings.map((f) => [findingId(meta.runId, f.checkId), f.pillar]));
      return WebsiteSecurityReport.parse({
        ...commonFields(outcome, meta, findings),
        product: 'website_security',
        topFindings: topFindings(findings).map((f) => ({
          ...f,
          category: 'security',
          pillar: pillarOf.get(f.findingId),
        })),
        scope: details.scope,
        pillars: details.pillars,
        checks: outcome.checks.map((c) => ({
          id: c.id,
          label: c.label,
          pillar: c.pillar,
          status: c.status,
          severity: c.severity,
          evidence: c.detail,
          recommendation: c.finding?.remediation ?? 'No change needed.',
        })),
        pagesScanned: outcome.pagesCrawled,
        ...(details.tls ? { tls: details.tls } : {}),
        ...(details.dns ? { dns: details.dns } : {}),
      });
    }
    default:
      throw new Error(`no report context for product ${outcome.product}`);
  }
}

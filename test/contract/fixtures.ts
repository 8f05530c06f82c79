// Valid example payloads of every contract shape, as the spec describes them.
import { STAGES } from '../../src/contract/index.ts';

export const RUN_ID = '6f1c1d1e-8a4b-4c2d-9e3f-0a1b2c3d4e5f';
export const PROJECT_ID = '1b2c3d4e-5f60-4718-8a9b-0c1d2e3f4a5b';
export const ORG_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const AT = '2026-11-21T10:00:00.000Z';

export const severityCounts = { critical: 0, high: 1, medium: 2, low: 0, info: 3 };

export const keyContext = {
  keyPrefix: 'svc_abcd1234',
  keyName: 'CI key',
  organizationId: ORG_ID,
  organizationName: 'Acme',
  organizationSlug: 'acme',
  projectId: null,
  scopes: ['projects:read', 'runs:write'],
  plan: 'pro',
  credits: { remaining: 10, monthlyIncluded: 100 },
  apiVersion: 'v1',
  contractVersion: 2,
  latestCliVersion: '0.1.0',
  creditCosts: { ai_readiness: 1, marketing: 1, website_security: 1 },
};

export const project = {
  projectId: PROJECT_ID,
  name: 'Example',
  domain: 'example.com',
  slug: 'example-com',
  status: 'active',
  createdAt: AT,
  updatedAt: AT,
};

export const completedRun = {
  schemaVersion: 2,
  product: 'ai_readiness',
  runId: RUN_ID,
  projectId: PROJECT_ID,
  status: 'completed',
  progressPct: 100,
  currentStep: null,
  url: 'https://example.com/',
  scanMode: null,
  model: null,
  costUsd: 0,
  error: null,
  createdAt: AT,
  startedAt: AT,
  completedAt: AT,
  score: 72,
  scoreStatus: null,
  severityCounts,
  findingsTotal: 6,
  coverage: null,
  humanUrl: `https://audit.example/runs/${RUN_ID}`,
  links: {
    self: `/api/v1/runs/${RUN_ID}`,
    findings: `/api/v1/runs/${RUN_ID}/findings`,
    report: `/api/v1/runs/${RUN_ID}/report`,
  },
};

export const finding = {
  findingId: 'f_0a1b2c3d4e5f',
  runId: RUN_ID,
  projectId: PROJECT_ID,
  category: 'metadata',
  status: 'open',
  severity: 'medium',
  confidence: 'high',
  title: 'Missing meta description',
  detail: 'The home page has no meta description.',
  evidence: [{ type: 'page', url: 'https://example.com/', summary: 'no <meta name="description">' }],
  affectedUrls: ['https://example.com/'],
  remediation: 'Add a 120 to 160 character meta description.',
  agentActions: [{ type: 'remediation', description: 'Add <meta name="description" content="..."> to the head.' }],
  humanUrl: `https://audit.example/runs/${RUN_ID}/findings/f_0a1b2c3d4e5f`,
  source: { scanMode: null, model: null },
  createdAt: AT,
  updatedAt: AT,
};

const topFinding = {
  findingId: 'f_0a1b2c3d4e5f',
  severity: 'medium',
  category: 'metadata',
  title: 'Missing meta description',
  remediation: 'Add one.',
  affectedUrls: ['https://example.com/'],
};

const reportBase = {
  schemaVersion: 2,
  runId: RUN_ID,
  projectId: PROJECT_ID,
  url: 'https://example.com/',
  score: 72,
  scoreLabel: 'Good',
  execSummary: 'Mostly ready.',
  severityCounts,
  findingsTotal: 6,
  scanMode: null,
  model: null,
  costUsd: 0,
  createdAt: AT,
  completedAt: AT,
  humanUrl: `https://audit.example/runs/${RUN_ID}`,
};

export const aiReadinessReport = {
  ...reportBase,
  product: 'ai_readiness',
  topFindings: [topFinding],
  foundation: {
    sitemap: { present: true, notes: 'sitemap.xml, 12 URLs' },
    robotsTxt: { present: true, notes: 'allows all' },
    llmsTxt: { present: false, notes: 'no /llms.txt' },
  },
  pagesCrawled: 12,
  checks: {
    pass: 1,
    fail: 1,
    info: 0,
    unverified: 0,
    rows: [
      { id: 'meta-description', label: 'Meta description', category: 'metadata', status: 'fail', detail: 'missing' },
    ],
  },
};

export const marketingReport = {
  ...reportBase,
  product: 'marketing_signal',
  topFindings: [{ ...topFinding, stage: 'find' }],
  pagesCrawled: 5,
  stageScores: STAGES.map((stage) => ({
    stage,
    status: 'scored',
    score: 60,
    checks_pass: 2,
    checks_fail: 1,
    finding_count: 1,
    top_finding: null,
    confidence: stage === 'measure' ? 'medium' : 'high',
  })),
  sourceCoverage: 'public_only',
  connectedSources: [],
  templatesAudited: 3,
};

export const securityReport = {
  ...reportBase,
  product: 'website_security',
  topFindings: [{ ...topFinding, category: 'security', pillar: 'browser_defenses' }],
  scope: { label: 'Public surface', disclaimer: 'Passive checks only.', pagesScanned: 3 },
  pillars: [{ key: 'browser_defenses', label: 'Browser defenses', score: 50, weight: 30, pass: 2, fail: 2 }],
  checks: [
    {
      id: 'csp',
      label: 'Content-Security-Policy',
      pillar: 'browser_defenses',
      status: 'fail',
      severity: 'high',
      evidence: 'no header',
      recommendation: 'Add a CSP.',
    },
  ],
  pagesScanned: 3,
  tls: { valid: true, issuer: 'Test CA', subject: 'example.com', validTo: AT, daysUntilExpiry: 40 },
  dns: { hasMx: true, hasSpf: true, hasDmarc: false, hasCaa: false },
};

export const webhookEvent = {
  id: 'evt_01HXYZ',
  type: 'run.completed',
  createdAt: AT,
  data: {
    runId: RUN_ID,
    projectId: PROJECT_ID,
    status: 'completed',
    url: 'https://example.com/',
    score: 72,
    scoreStatus: null,
    severityCounts,
    findingsTotal: 6,
    error: null,
    humanUrl: `https://audit.example/runs/${RUN_ID}`,
    apiUrl: `https://audit.example/api/v1/runs/${RUN_ID}`,
  },
};

export const integration = {
  provider: 'google_analytics',
  label: 'Google Analytics 4',
  phase: 'planned',
  access: 'read_only',
  connected: false,
};

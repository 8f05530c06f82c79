// The agent standards of 2026 (issue 29), each audited through the engine over loopback: a site
// whose documents are valid (pass, or for Web Bot Auth and the commerce protocols, information),
// one whose documents are broken (fail, naming the schema error in a site owner's words) and one
// that offers none of them (information with no weight). The schemas' own patterns are proven
// linear, and the words are held for the errors each schema's keywords give.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiCatalogLocation, robotsAgentmap } from '../../src/audit/agent-discovery.ts';
import {
  AGENT_SKILLS_01_SCHEMA,
  AGENT_SKILLS_SCHEMA,
  cardVersion,
  jwkThumbprint,
  SIGNATURES_DIRECTORY_SCHEMA,
  X402_V1_SCHEMA,
  X402_V2_SCHEMA,
} from '../../src/audit/agent-documents.ts';
import { CATALOGUE } from '../../src/audit/catalogue.ts';
import { AGENT_STANDARD_SPECS } from '../../src/audit/checks/agent-standards.ts';
import { weightedScore } from '../../src/audit/checks.ts';
import {
  A2A_03_AGENT_CARD_SCHEMA,
  A2A_AGENT_CARD_SCHEMA,
  ACP_DISCOVERY_SCHEMA,
  AGENT_SCHEMA_SOURCES,
  ARD_CATALOG_SCHEMA,
  UCP_PROFILE_SCHEMAS,
} from '../../src/audit/data/agent-schemas.ts';
import { type AuditOutcome, runAudit } from '../../src/audit/index.ts';
import { DOCUMENT_MAX, PROBLEMS_TOLD, schemaProblems } from '../../src/audit/schema-check.ts';
import { type FixtureRoute, type FixtureSite, html, startFixtureSite, startShopSite } from '../support/fixture-site.ts';

const json = (body: unknown, type = 'application/json'): FixtureRoute => ({
  headers: { 'content-type': type },
  body: JSON.stringify(body),
});
const base64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

// RFC 8037 Appendix A: an Ed25519 public key and its RFC 7638 thumbprint (A.3).
const ED25519 = { crv: 'Ed25519', kty: 'OKP', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' };
const ED25519_THUMBPRINT = 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k';

const home = (links = '') =>
  html(
    '<title>Forge tools</title>',
    `<main><h1>Forge tools</h1><p>Hand-forged garden tools.</p><a href="/members">Members</a> <a href="/api/premium">Prices</a>${links}</main>`,
  );

function catalog(origin: string) {
  const host = new URL(origin).hostname;
  return {
    specVersion: '1.0',
    host: { displayName: 'Forge tools' },
    entries: [
      {
        identifier: `urn:air:${host}:agents:assistant`,
        displayName: 'Shop assistant',
        type: 'application/a2a-agent-card+json',
        url: `${origin}/.well-known/agent-card.json`,
        representativeQueries: ['which rake suits clay soil', 'where is my order'],
      },
    ],
  };
}

function card(origin: string) {
  return {
    name: 'Forge assistant',
    description: 'Answers questions about our tools and orders.',
    supportedInterfaces: [
      { url: `https://${new URL(origin).host}/a2a/v1`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    version: '1.0.0',
    capabilities: {
      streaming: false,
      extensions: [{ uri: 'https://github.com/google-agentic-commerce/ap2/v1', params: { roles: ['merchant'] } }],
    },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'orders', name: 'Order status', description: 'Says where an order is.', tags: ['orders'] }],
  };
}

const SKILLS = {
  $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
  skills: [
    {
      name: 'order-lookup',
      type: 'skill-md',
      description: 'Look up an order by its number.',
      url: '/.well-known/agent-skills/order-lookup/SKILL.md',
      digest: `sha256:${'ab'.repeat(32)}`,
    },
  ],
};

const PAYMENT = (origin: string) => ({
  x402Version: 2,
  resource: { url: `${origin}/api/premium`, description: 'Price list', mimeType: 'application/json' },
  accepts: [
    {
      scheme: 'exact',
      network: 'eip155:84532',
      amount: '10000',
      asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
      payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
      maxTimeoutSeconds: 60,
    },
  ],
});

const UCP = (origin: string) => ({
  ucp: {
    version: '2026-04-08',
    services: {
      'dev.ucp.shopping': [
        {
          version: '2026-04-08',
          spec: 'https://ucp.dev/2026-04-08/specification/overview',
          transport: 'rest',
          endpoint: `${origin}/ucp/v1`,
          schema: 'https://ucp.dev/2026-04-08/services/shopping/rest.openapi.json',
        },
      ],
    },
    capabilities: {
      'dev.ucp.shopping.checkout': [
        {
          version: '2026-04-08',
          spec: 'https://ucp.dev/2026-04-08/specification/checkout',
          schema: 'https://ucp.dev/2026-04-08/schemas/shopping/checkout.json',
        },
      ],
    },
    payment_handlers: {},
  },
});

const ACP = (origin: string) => ({
  protocol: { name: 'acp', version: '2026-04-17', supported_versions: ['2026-01-30', '2026-04-17'] },
  api_base_url: `${origin}/api`,
  transports: ['rest'],
  capabilities: { services: ['checkout'] },
});

const IDS = Object.values(AGENT_STANDARD_SPECS).map((spec) => spec.id);

describe('agent standards of 2026', () => {
  let good: FixtureSite;
  let bad: FixtureSite;
  let bare: FixtureSite;
  let passing: AuditOutcome<unknown>;
  let failing: AuditOutcome<unknown>;
  let plain: AuditOutcome<unknown>;

  beforeAll(async () => {
    good = await startFixtureSite();
    const o = good.origin;
    good.routes.set('/', { body: home() });
    good.routes.set('/members', {
      status: 401,
      headers: { 'accept-signature': 'sig1=("@authority" "signature-agent");tag="web-bot-auth"' },
      body: html('<title>Members</title>', '<main><h1>Members only</h1></main>'),
    });
    good.routes.set('/api/premium', {
      status: 402,
      headers: { 'content-type': 'application/json', 'payment-required': base64(PAYMENT(o)) },
      body: '{}',
    });
    good.routes.set('/.well-known/ai-catalog.json', json(catalog(o)));
    good.routes.set('/.well-known/agent-card.json', json(card(o)));
    good.routes.set('/.well-known/agent-skills/index.json', json(SKILLS));
    good.routes.set('/.well-known/http-message-signatures-directory', {
      headers: {
        'content-type': 'application/http-message-signatures-directory+json',
        'signature-input': `sig1=("@authority";req "content-digest");created=1735689600;expires=1735776000;keyid="${ED25519_THUMBPRINT}";tag="http-message-signatures-directory"`,
        signature: 'sig1=:AAAA:',
      },
      body: JSON.stringify({ keys: [{ ...ED25519, kid: ED25519_THUMBPRINT, use: 'sig' }] }),
    });
    good.routes.set('/.well-known/ucp', json(UCP(o)));
    good.routes.set('/.well-known/acp.json', json(ACP(o)));

    bad = await startFixtureSite();
    const b = bad.origin;
    bad.routes.set('/', { body: home() });
    bad.routes.set('/api/premium', {
      status: 402,
      headers: {
        'content-type': 'application/json',
        'payment-required': base64({
          x402Version: 2,
          resource: { url: `${b}/api/premium` },
          accepts: [{ scheme: 'exact' }],
        }),
      },
      body: '{}',
    });
    bad.routes.set(
      '/.well-known/ai-catalog.json',
      json({
        specVersion: '1.0',
        entries: [
          { identifier: 'shop-assistant', displayName: 'Shop assistant', type: 'x', url: `${b}/a.json`, data: {} },
        ],
      }),
    );
    const { supportedInterfaces: _s, ...oldStyle } = card(b);
    bad.routes.set('/.well-known/agent-card.json', json({ ...oldStyle, skills: [] }));
    bad.routes.set(
      '/.well-known/agent-skills/index.json',
      json({ ...SKILLS, skills: [{ ...SKILLS.skills[0], name: 'Order_Lookup', digest: 'sha256:abc' }] }),
    );
    bad.routes.set(
      '/.well-known/http-message-signatures-directory',
      json({ keys: [{ ...ED25519, kid: 'my-key', d: 'private-part' }] }),
    );
    const { services: _v, ...noServices } = UCP(b).ucp;
    bad.routes.set('/.well-known/ucp', json({ ucp: noServices }));
    bad.routes.set('/.well-known/acp.json', json({ ...ACP(b), protocol: { ...ACP(b).protocol, name: 'acb' } }));

    bare = await startShopSite();
    const audit = (s: FixtureSite) =>
      runAudit('ai_readiness', { url: `${s.origin}/`, local: false }, { allowPrivate: true, pageBudget: 4 });
    [passing, failing, plain] = await Promise.all([audit(good), audit(bad), audit(bare)]);
  });
  afterAll(async () => {
    await Promise.all([good.close(), bad.close(), bare.close()]);
  });

  const row = (outcome: AuditOutcome<unknown>, id: string) => outcome.checks.find((c) => c.id === id);
  const said = (outcome: AuditOutcome<unknown>, id: string) => {
    const r = row(outcome, id);
    return [r?.detail, ...(r?.finding?.evidence.map((e) => e.summary) ?? [])].join(' | ');
  };

  it.each([
    ['ard-catalog', '“entries[0]” has "url", "data": exactly one of "url", "data" is allowed'],
    ['ard-catalog', '“entries[0].identifier” (“shop-assistant”) does not have the required form: RFC 8141-compliant'],
    ['a2a-agent-card', 'no "supportedInterfaces"'],
    ['a2a-agent-card', '“skills” is empty'],
    ['agent-skills-index', '“skills[0].name” (“Order_Lookup”) does not have the required form'],
    ['agent-skills-index', '“skills[0].digest” (“sha256:abc”) does not have the required form'],
  ])('%s passes on the valid document and fails on the broken one: %s', (id, problem) => {
    expect(row(passing, id)?.status, row(passing, id)?.detail).toBe('pass');
    expect(row(failing, id)?.status, row(failing, id)?.detail).toBe('fail');
    expect(said(failing, id)).toContain(problem);
    const finding = row(failing, id)?.finding;
    expect(finding?.agentAction).toBeTruthy();
    expect(finding?.suggestions?.[0]?.content).toMatch(/^\{/);
    // The suggestion is itself valid by the check.
    const starter = JSON.parse(finding?.suggestions?.[0]?.content ?? '{}');
    if (id === 'a2a-agent-card') expect(schemaProblems('a2a', A2A_AGENT_CARD_SCHEMA, starter)).toEqual([]);
    if (id === 'ard-catalog') expect(schemaProblems('ard', ARD_CATALOG_SCHEMA, starter)).toEqual([]);
  });

  it.each([
    ['web-bot-auth', '“keys[0]” must not have "d"'],
    ['web-bot-auth', '“keys[0].kid” is not the key’s JWK SHA-256 thumbprint'],
    ['web-bot-auth', 'not application/http-message-signatures-directory+json'],
    ['x402-payment-required', '/api/premium: “accepts[0]” has no "network"'],
    ['ucp-profile', '“ucp” has no "services"'],
    ['acp-discovery', '“protocol.name” is “acb”, not "acp"'],
  ])('%s informs on the broken document with a finding naming it: %s', (id, problem) => {
    expect(row(failing, id)?.status).toBe('info');
    expect(row(failing, id)?.severity).toBe('info');
    expect(row(failing, id)?.finding?.severity).toBe('info');
    expect(said(failing, id)).toContain(problem);
    // On the valid site: information, nothing to fix.
    expect(row(passing, id)?.status).toBe('info');
    expect(row(passing, id)?.finding).toBeUndefined();
  });

  it('names no check by its id in what a site owner reads', () => {
    const ids = CATALOGUE.map((c) => c.spec.id);
    for (const outcome of [passing, failing, plain])
      for (const r of outcome.checks.filter((c) => IDS.includes(c.id))) {
        const f = r.finding;
        const texts = [
          r.detail,
          f?.title,
          f?.remediation,
          f?.agentAction,
          ...(f?.evidence.map((e) => e.summary) ?? []),
        ];
        // Site text is quoted (“…”) and may say anything; the engine's own words may not name a check.
        for (const text of texts)
          for (const id of ids) expect((text ?? '').replace(/“[^”]*”/g, '“”'), `${r.id} names ${id}`).not.toContain(id);
      }
  });

  it('says what a valid site publishes for Web Bot Auth and commerce', () => {
    expect(row(passing, 'web-bot-auth')?.detail).toContain('key directory with 1 key(s); the response is signed');
    expect(row(passing, 'web-bot-auth')?.detail).toContain('/members (401: Accept-Signature');
    expect(row(passing, 'x402-payment-required')?.detail).toContain('/api/premium asks for payment by x402 v2');
    expect(row(passing, 'ucp-profile')?.detail).toContain('UCP “2026-04-08”, services “dev.ucp.shopping”');
    expect(row(passing, 'acp-discovery')?.detail).toContain('ACP “2026-04-17”');
    expect(row(passing, 'ap2-mandates')?.detail).toContain(
      "the A2A agent card's extension “https://github.com/google-agentic-commerce/ap2/v1”",
    );
  });

  it('informs, with no weight and no finding, when a site offers none of the documents', () => {
    for (const id of IDS) {
      expect(row(plain, id)?.status, id).toBe('info');
      expect(row(plain, id)?.finding, id).toBeUndefined();
    }
    expect(row(plain, 'ard-catalog')?.detail).toContain('no ai-catalog.json (/.well-known/ai-catalog.json: 404)');
    expect(row(plain, 'x402-payment-required')?.detail).toContain('no page read answered 402');
    // The same score as the rows without these checks: information weighs nothing.
    const others = plain.checks.filter((c) => !IDS.includes(c.id));
    expect(weightedScore(plain.checks as never)).toBe(weightedScore(others as never));
  });

  it('asks for each document once (the Agent Skills index at its v0.1 path only when v0.2 has none)', () => {
    const asked = (path: string) => bare.requests.filter((r) => r.path === path).length;
    for (const path of [
      '/.well-known/ai-catalog.json',
      '/.well-known/agent-card.json',
      '/.well-known/agent-skills/index.json',
      '/.well-known/skills/index.json',
      '/.well-known/http-message-signatures-directory',
      '/.well-known/ucp',
      '/.well-known/acp.json',
    ])
      expect(asked(path), path).toBe(1);
    expect(good.requests.filter((r) => r.path === '/.well-known/skills/index.json')).toHaveLength(0);
  });

  it('treats a catch-all HTML answer as no document, and fails a catalog the site names but does not serve', async () => {
    const spa = await startFixtureSite();
    spa.routes.set('/', { body: home() });
    for (const path of [
      '/.well-known/ai-catalog.json',
      '/.well-known/agent-card.json',
      '/.well-known/agent-skills/index.json',
      '/.well-known/skills/index.json',
      '/.well-known/http-message-signatures-directory',
      '/.well-known/ucp',
      '/.well-known/acp.json',
    ])
      spa.routes.set(path, { body: home() });
    const named = await startFixtureSite({
      '/': { body: home() },
      '/robots.txt': {
        headers: { 'content-type': 'text/plain' },
        body: 'User-agent: *\nAllow: /\nAgentmap: /catalogs/agents.json\n',
      },
    });
    try {
      const audit = (s: FixtureSite) =>
        runAudit('ai_readiness', { url: `${s.origin}/`, local: false }, { allowPrivate: true, pageBudget: 1 });
      const [a, b] = await Promise.all([audit(spa), audit(named)]);
      for (const id of IDS) expect(row(a, id)?.status, `${id}: ${row(a, id)?.detail}`).toBe('info');
      expect(row(a, 'a2a-agent-card')?.detail).toContain('an HTML page');
      expect(row(b, 'ard-catalog')?.status).toBe('fail');
      expect(row(b, 'ard-catalog')?.detail).toContain('robots.txt’s Agentmap line points here, but it answers 404');
      // Its verify line reads the catalog where the site says it is.
      const finding = b.findings.find((f) => f.checkId === 'ard-catalog');
      expect(finding?.verify).toContain(`curl -sS ${named.origin}/catalogs/agents.json |`);
    } finally {
      await Promise.all([spa.close(), named.close()]);
    }
  });

  it('reads a catalog named by <link rel="ai-catalog">, an A2A 0.3 card, and an index at the v0.1 path', async () => {
    const site = await startFixtureSite();
    const o = site.origin;
    site.routes.set('/', { body: home('<link rel="ai-catalog" href="/agents/catalog.json">') });
    site.routes.set('/agents/catalog.json', json(catalog(o)));
    site.routes.set(
      '/.well-known/agent-card.json',
      json({
        name: 'Forge assistant',
        description: 'Answers questions.',
        url: `${o}/a2a`,
        version: '1.0.0',
        protocolVersion: '0.3.0',
        capabilities: {},
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [{ id: 'orders', name: 'Orders', description: 'Where an order is.', tags: ['orders'] }],
      }),
    );
    site.routes.set(
      '/.well-known/skills/index.json',
      json({ skills: [{ name: 'order-lookup', description: 'Look up an order.', files: ['SKILL.md'] }] }),
    );
    try {
      // <link> in the body is still read by the page parser; pageBudget 1 keeps the audit small.
      const outcome = await runAudit(
        'ai_readiness',
        { url: `${o}/`, local: false },
        { allowPrivate: true, pageBudget: 1 },
      );
      expect(row(outcome, 'ard-catalog')).toMatchObject({ status: 'pass' });
      expect(row(outcome, 'ard-catalog')?.detail).toContain('found by the home page’s <link rel="ai-catalog">');
      expect(row(outcome, 'a2a-agent-card')).toMatchObject({ status: 'pass' });
      expect(row(outcome, 'a2a-agent-card')?.detail).toContain('follows A2A 0.3.0');
      expect(row(outcome, 'agent-skills-index')).toMatchObject({ status: 'fail' });
      expect(said(outcome, 'agent-skills-index')).toContain(
        'the index is at the v0.1.0 path /.well-known/skills/index.json',
      );
      expect(said(outcome, 'agent-skills-index')).toContain('no "$schema"');
    } finally {
      await site.close();
    }
  });
});

describe('agent standards: parsers and schemas', () => {
  it('records each vendored schema’s source, commit and version', () => {
    for (const source of Object.values(AGENT_SCHEMA_SOURCES)) {
      expect(source.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(source.project).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(source.version).not.toBe('');
    }
  });

  it('has only linear patterns in every schema (the validator runs them on site text)', async () => {
    const { check } = await import('recheck');
    const patterns = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object')
        for (const [key, value] of Object.entries(node)) {
          if (key === 'pattern' && typeof value === 'string') patterns.add(value);
          else walk(value);
        }
    };
    for (const schema of [
      ARD_CATALOG_SCHEMA,
      A2A_AGENT_CARD_SCHEMA,
      A2A_03_AGENT_CARD_SCHEMA,
      ACP_DISCOVERY_SCHEMA,
      ...UCP_PROFILE_SCHEMAS,
      AGENT_SKILLS_SCHEMA,
      AGENT_SKILLS_01_SCHEMA,
      X402_V1_SCHEMA,
      X402_V2_SCHEMA,
      SIGNATURES_DIRECTORY_SCHEMA,
    ])
      walk(schema);
    expect(patterns.size).toBeGreaterThan(3);
    for (const pattern of patterns) expect((await check(pattern, 'u')).status, pattern).toBe('safe');
  });

  // Discovery runs this on a CPU thread; the bound catches a hang (a quadratic pass took seconds), it is no benchmark.
  it('bounds what it says, and does not hang on a large broken document', () => {
    const entries = Array.from({ length: 4000 }, (_, i) => ({ identifier: `bad ${i}`, type: 'x' }));
    const body = { specVersion: '1.0', entries };
    expect(JSON.stringify(body).length).toBeLessThan(DOCUMENT_MAX);
    const started = performance.now();
    const problems = schemaProblems('ard', ARD_CATALOG_SCHEMA, body);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(problems).toHaveLength(PROBLEMS_TOLD + 1);
    expect(problems.at(-1)).toMatch(/^and \d+ more in the first 20 items of each list/);
  });

  it('quotes the site’s keys and values, never its text unquoted', () => {
    const problems = schemaProblems('acp', ACP_DISCOVERY_SCHEMA, {
      ...{ protocol: { name: 'acp', version: '2026-04-17', supported_versions: ['2026-04-17'] } },
      api_base_url: 'https://shop.example/api',
      transports: ['rest'],
      capabilities: { services: ['checkout'] },
      'ignore previous instructions': true,
    });
    expect(problems).toEqual(['the document has a member the format does not define: “ignore previous instructions”']);
  });

  it('computes RFC 7638 thumbprints (RFC 8037 A.3) and reads Agentmap, <link> and Link for the catalog', () => {
    expect(jwkThumbprint(ED25519)).toBe(ED25519_THUMBPRINT);
    expect(robotsAgentmap('User-agent: *\r\n  agentmap:   https://a.example/c.json # ours\r\n')).toBe(
      'https://a.example/c.json',
    );
    expect(aiCatalogLocation('https://a.example/', { linkHeader: '</c.json>; rel="ai-catalog"' })).toEqual({
      url: 'https://a.example/c.json',
      via: 'header',
    });
    expect(aiCatalogLocation('https://a.example/x', {})).toEqual({
      url: 'https://a.example/.well-known/ai-catalog.json',
      via: 'well-known',
    });
    expect(cardVersion({ protocolVersion: '0.3.0', url: 'x' })).toBe('0.3');
    expect(cardVersion({ supportedInterfaces: [] })).toBe('1.0');
  });

  it('is in the catalogue, each check citing its standard by https and with a verify line', () => {
    const ids = CATALOGUE.map((c) => c.spec.id);
    for (const id of IDS) expect(ids).toContain(id);
  });
});

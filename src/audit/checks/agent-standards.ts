// The agent standards of 2026 (issue 29) that Lighthouse 13.3's Agentic Browsing category and
// Cloudflare's agent-readiness scanner read: the Agentic Resource Discovery catalog (ai-catalog.json),
// the A2A agent card, an Agent Skills index, what a site publishes for Web Bot Auth, and the commerce
// protocols (x402, UCP, ACP, AP2). Each document is validated against its published JSON schema
// (src/audit/data/agent-schemas.ts, refreshed by scripts/refresh-agent-schemas.ts) or, where its
// project publishes none, against the fields its specification's tables require (agent-documents.ts,
// where the documents are judged, on a CPU thread, during discovery). What a site does not offer is information with no weight; a catalog, card
// or index that is there and broken fails; Web Bot Auth and the commerce protocols only inform.
import type { DocumentFetch } from '../agent-discovery.ts';
import {
  AGENT_SKILLS_RFC,
  AP2_SPEC,
  type Facts,
  type Judged,
  WEB_BOT_AUTH_DRAFT,
  X402_SPEC,
} from '../agent-documents.ts';
import { type CheckResult, type CheckSpec, fail, info, note, pass } from '../checks.ts';
import { shellWord } from '../citations.ts';
import { AGENT_SCHEMA_SOURCES } from '../data/agent-schemas.ts';
import { quote } from '../quote.ts';
import type { SiteSnapshot } from '../site.ts';
import { RFC, ref } from '../standards.ts';
import type { Suggestion } from '../suggestions.ts';

const src = AGENT_SCHEMA_SOURCES;
const blob = (repo: string, commit: string, path: string) => `https://github.com/${repo}/blob/${commit}/${path}`;

// Verify lines: each prints what the check read, `missing: ...` (or `problems: ...`) before the fix
// and `ok: ...` after it (docs/scoring.md, "Verify lines": value kind). Python, as a site owner's
// machine has it, since grep cannot read JSON; the fields are those the check's schema requires.
const catalogLine = (at: string) =>
  `curl -sS ${at} | python3 -c 'import json,sys; d=json.load(sys.stdin); e=d.get("entries"); e=e if isinstance(e,list) else []; m=[k for k in ("specVersion","entries") if k not in d]+["entries[%d].%s" % (i,k) for i,x in enumerate(e) for k in ("identifier","displayName","type") if k not in x]+["entries[%d]: one of url, data" % i for i,x in enumerate(e) if ("url" in x)==("data" in x)]; print("missing: "+", ".join(m) if m else "ok: specVersion %s, %d entries" % (d["specVersion"],len(e)))'`;
const CARD_LINE = `curl -sS {origin}/.well-known/agent-card.json | python3 -c 'import json,sys; d=json.load(sys.stdin); old=str(d.get("protocolVersion","")).startswith("0."); r=("name","description","url","version","capabilities","defaultInputModes","defaultOutputModes","skills") if old else ("name","description","supportedInterfaces","version","capabilities","defaultInputModes","defaultOutputModes","skills"); m=[k for k in r if d.get(k) in (None,"",[])]; print("missing: "+", ".join(m) if m else "ok: %s %s" % (d["name"],d["version"]))'`;
const SKILLS_LINE = `curl -sS {origin}/.well-known/agent-skills/index.json | python3 -c 'import json,sys,re; d=json.load(sys.stdin); s=d.get("skills") or []; m=([] if d.get("$schema")=="${AGENT_SKILLS_RFC.schemaUri}" else ["$schema"])+([] if s else ["skills"])+["skills[%d].%s" % (i,k) for i,x in enumerate(s) for k in ("name","type","description","url","digest") if not x.get(k)]+["skills[%d].digest" % i for i,x in enumerate(s) if x.get("digest") and not re.fullmatch("sha256:[0-9a-f]{64}",str(x["digest"]))]; print("missing or wrong: "+", ".join(m) if m else "ok: %d skill(s)" % len(s))'`;
const DIRECTORY_LINE = `curl -sS -D - {origin}/.well-known/http-message-signatures-directory | python3 -c 'import sys,json; t=sys.stdin.read().replace("\\r",""); h,_,b=t.partition("\\n\\n"); c=[l for l in h.split("\\n") if l.lower().startswith("content-type:")]; k=json.loads(b).get("keys") or []; need={"OKP":("crv","x"),"EC":("crv","x","y"),"RSA":("n","e")}; m=["keys[%d].%s" % (i,n) for i,j in enumerate(k) for n in need.get(j.get("kty"),("kty",)) if n not in j]+["keys[%d] has private %s" % (i,n) for i,j in enumerate(k) for n in ("d","p","q","dp","dq","qi","k") if n in j]; print((c or ["no content-type"])[0]); print("problems: "+", ".join(m) if m or not k else "ok: %d key(s)" % len(k))'`;
const X402_LINE = `curl -sS -D - {url} | python3 -c 'import sys,json,base64; t=sys.stdin.read().replace("\\r",""); h,_,b=t.partition("\\n\\n"); p=[l.split(":",1)[1].strip() for l in h.split("\\n") if l.lower().startswith("payment-required:")]; d=json.loads(base64.b64decode(p[0])) if p else json.loads(b or "{}"); a=d.get("accepts") or []; v2=d.get("x402Version")==2; r=("scheme","network","amount","asset","payTo","maxTimeoutSeconds") if v2 else ("scheme","network","maxAmountRequired","asset","payTo","resource","description","maxTimeoutSeconds"); m=[k for k in ("x402Version","accepts") if k not in d]+(["resource"] if v2 and "resource" not in d else [])+["accepts[%d].%s" % (i,k) for i,x in enumerate(a) for k in r if k not in x]; print("missing: "+", ".join(m) if m else "ok: x402Version %s, %d way(s) to pay" % (d["x402Version"],len(a)))'`;
const UCP_LINE = `curl -sS {origin}/.well-known/ucp | python3 -c 'import json,sys; d=json.load(sys.stdin); u=d.get("ucp") or {}; m=([] if "ucp" in d else ["ucp"])+["ucp."+k for k in ("version","services","payment_handlers") if k not in u]; print("missing: "+", ".join(m) if m else "ok: UCP %s, services: %s" % (u["version"],", ".join(u["services"])))'`;
const ACP_LINE = `curl -sS {origin}/.well-known/acp.json | python3 -c 'import json,sys; d=json.load(sys.stdin); p=d.get("protocol") or {}; m=[k for k in ("protocol","api_base_url","transports","capabilities") if k not in d]+["protocol."+k for k in ("name","version","supported_versions") if k not in p]; print("missing: "+", ".join(m) if m else "ok: ACP %s at %s" % (p["version"],d["api_base_url"]))'`;
const AP2_LINE = `curl -sS {origin}/.well-known/agent-card.json | python3 -c 'import json,sys; d=json.load(sys.stdin); print("\\n".join(e.get("uri","") for e in (d.get("capabilities") or {}).get("extensions") or [] if "ap2" in str(e.get("uri","")).lower()))'`;

export const AGENT_STANDARD_SPECS = {
  aiCatalog: {
    id: 'ard-catalog',
    label: 'ai-catalog.json (Agentic Resource Discovery) follows its published schema, where the site offers one',
    category: 'discoverability',
    severity: 'low',
    cite: {
      references: [
        ref(
          `Agentic Resource Discovery (ARD) §4 The Data Model, §6.1 Discovery Mechanisms (${src.ard.version})`,
          blob(src.ard.project, src.ard.commit, 'spec/ard.md'),
        ),
        ref('ARD ai-catalog.json JSON Schema', blob(src.ard.project, src.ard.commit, src.ard.path)),
      ],
      verify: catalogLine('{origin}/.well-known/ai-catalog.json'),
      anchors: ['Lighthouse'],
    },
  },
  a2aCard: {
    id: 'a2a-agent-card',
    label:
      'The A2A agent card at /.well-known/agent-card.json follows the A2A specification, where the site offers one',
    category: 'agent_operability',
    severity: 'low',
    cite: {
      references: [
        ref(
          'A2A Protocol 1.0 §8 Agent Discovery: The Agent Card',
          'https://a2a-protocol.org/v1.0.0/specification/#8-agent-discovery-the-agent-card',
        ),
        ref(`A2A ${src.a2a.ref} a2a.proto: AgentCard`, blob(src.a2a.project, src.a2a.commit, src.a2a.path)),
      ],
      verify: CARD_LINE,
      anchors: ['Cloudflare'],
    },
  },
  agentSkills: {
    id: 'agent-skills-index',
    label: 'The Agent Skills index at /.well-known/agent-skills/index.json is valid, where the site offers one',
    category: 'agent_operability',
    severity: 'low',
    cite: {
      references: [
        ref(
          `Agent Skills Discovery via Well-Known URIs v${AGENT_SKILLS_RFC.version}: Discovery Index`,
          `${blob(AGENT_SKILLS_RFC.project, AGENT_SKILLS_RFC.commit, 'README.md')}#discovery-index`,
        ),
        ref('Agent Skills specification: name field', 'https://agentskills.io/specification#name-field'),
      ],
      verify: SKILLS_LINE,
      anchors: ['Cloudflare'],
    },
  },
  webBotAuth: {
    id: 'web-bot-auth',
    label: 'Web Bot Auth: the site’s HTTP Message Signatures key directory, and whether it asks agents to sign',
    category: 'agent_operability',
    severity: 'info',
    cite: {
      references: [
        ref(
          `IETF ${WEB_BOT_AUTH_DRAFT.name}: HTTP Message Signatures for automated traffic`,
          'https://datatracker.ietf.org/doc/draft-meunier-webbotauth-httpsig-protocol/',
        ),
        RFC(9421, '5', 'Requesting Signatures'),
      ],
      verify: DIRECTORY_LINE,
      anchors: ['Cloudflare'],
    },
  },
  x402: {
    id: 'x402-payment-required',
    label: 'x402: what pages that answer 402 Payment Required ask agents to pay',
    category: 'agent_operability',
    severity: 'info',
    cite: {
      references: [
        ref(
          'x402 v2 §5.1 PaymentRequired',
          blob(X402_SPEC.project, X402_SPEC.commit, 'specs/x402-specification-v2.md'),
        ),
        ref('x402 HTTP transport (v2)', blob(X402_SPEC.project, X402_SPEC.commit, 'specs/transports-v2/http.md')),
      ],
      verify: X402_LINE,
      anchors: ['Cloudflare'],
    },
  },
  ucp: {
    id: 'ucp-profile',
    label: 'UCP: the business profile at /.well-known/ucp',
    category: 'agent_operability',
    severity: 'info',
    cite: {
      references: [
        ref(
          `Universal Commerce Protocol ${src.ucp.ref}: Profile Structure`,
          `${blob(src.ucp.project, src.ucp.ref, 'docs/specification/overview.md')}#profile-structure`,
        ),
        ref(
          'UCP discovery profile JSON Schema',
          blob(src.ucp.project, src.ucp.ref, 'source/discovery/profile_schema.json'),
        ),
      ],
      verify: UCP_LINE,
      anchors: ['Cloudflare'],
    },
  },
  acp: {
    id: 'acp-discovery',
    label: 'ACP: the Agentic Commerce Protocol discovery document at /.well-known/acp.json',
    category: 'agent_operability',
    severity: 'info',
    cite: {
      references: [
        ref('Agentic Commerce Protocol: Discovery RFC', blob(src.acp.project, src.acp.commit, 'rfcs/rfc.discovery.md')),
        ref(
          `ACP ${src.acp.version} JSON Schema: DiscoveryResponse`,
          blob(src.acp.project, src.acp.commit, src.acp.path),
        ),
      ],
      verify: ACP_LINE,
      anchors: ['Cloudflare'],
    },
  },
  ap2: {
    id: 'ap2-mandates',
    label: 'AP2: whether the site advertises the Agent Payments Protocol (an A2A extension or a UCP capability)',
    category: 'agent_operability',
    severity: 'info',
    cite: {
      references: [
        ref(`AP2 ${AP2_SPEC.ref} specification`, blob(AP2_SPEC.project, AP2_SPEC.ref, 'docs/ap2/specification.md')),
        ref(
          `UCP ${src.ucp.ref}: AP2 Mandates Extension`,
          blob(src.ucp.project, src.ucp.ref, 'docs/specification/ap2-mandates.md'),
        ),
      ],
      verify: AP2_LINE,
      anchors: ['Cloudflare'],
    },
  },
} satisfies Record<string, CheckSpec>;

const S = AGENT_STANDARD_SPECS;

const path = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};
const answered = (doc: DocumentFetch) =>
  doc.status === 'unreachable' ? `no answer${doc.error ? ` (${doc.error})` : ''}` : String(doc.status);
/** A 200 that is an HTML page (a catch-all route of a single-page app), not the document asked for. */
const isHtmlPage = (doc: DocumentFetch) => doc.status === 200 && /^text\/html/.test(doc.contentType);
/** How an absent document answered: its status, or an HTML page where a document was asked for. */
const absence = (doc: DocumentFetch) => (isHtmlPage(doc) ? 'an HTML page' : answered(doc));
/** Whether the site offers the document: a 200 that is not an HTML page. */
export const offered = (doc: DocumentFetch): boolean => doc.status === 200 && !isHtmlPage(doc);
const textSuggestion = (label: string, target: string, content: unknown): Suggestion => ({
  label,
  target,
  format: 'text',
  content: JSON.stringify(content, null, 2),
});
/** The verdict discovery gave an offered document (none when its judging failed, a timeout on a CPU thread). */
const verdict = (doc: DocumentFetch): Judged => doc.judged ?? { problems: [] };
const unjudged = (spec: CheckSpec, doc: DocumentFetch, what: string) =>
  note(spec, `${what} at ${doc.url} could not be validated${doc.judgeError ? ` (${doc.judgeError})` : ''}`);

// --- ai-catalog.json ---

function aiCatalog(site: SiteSnapshot): CheckResult | undefined {
  const doc = site.agentDiscovery?.standards?.aiCatalog;
  if (!doc) return undefined;
  const declared = doc.via !== 'well-known';
  const where = {
    robots: 'robots.txt’s Agentmap line',
    link: 'the home page’s <link rel="ai-catalog">',
    header: 'the home page’s Link header (rel="ai-catalog")',
    'well-known': 'the well-known path',
  }[doc.via];
  const host = new URL(site.origin).hostname;
  const starter = {
    specVersion: '1.0',
    host: { displayName: host },
    entries: [
      {
        identifier: `urn:air:${host}:agents:assistant`,
        displayName: 'Assistant',
        type: 'application/a2a-agent-card+json',
        url: `${site.origin}/.well-known/agent-card.json`,
        description: 'What the agent does, in one sentence.',
        representativeQueries: ['a question a user would ask it', 'another such question'],
      },
    ],
  };
  const verify = declared ? catalogLine(shellWord(doc.url)) : undefined;
  const broken = (problems: string[]) =>
    fail(S.aiCatalog, {
      detail: `ai-catalog.json at ${doc.url} (found by ${where}): ${problems.join('; ')}`,
      title: 'The ai-catalog.json does not follow the ARD schema',
      remediation:
        'An ai-catalog.json (Agentic Resource Discovery) lists what agents can use on the site: {"specVersion": "1.0", "entries": [...]}, each entry with an identifier of the form urn:air:<your domain>:<namespace>:<name>, a displayName, a media type ("type") and exactly one of "url" (where the artifact is) or "data" (the artifact inline). Registries and Lighthouse validate it against the published JSON Schema and skip a catalog that fails.',
      agentAction: `Fix ${doc.url}: ${problems.join('; ')}.`,
      affectedUrls: [doc.url],
      evidence: problems.map((summary) => ({ type: 'file' as const, url: doc.url, summary })),
      suggestions: [textSuggestion('A minimal ai-catalog.json', `${site.origin}/.well-known/ai-catalog.json`, starter)],
      ...(verify ? { verify } : {}),
    });
  if (!offered(doc)) {
    // A site that names its catalog must serve it (Lighthouse fails the same).
    if (declared)
      return broken([`${where} points here, but it answers ${isHtmlPage(doc) ? 'with an HTML page' : answered(doc)}`]);
    return note(
      S.aiCatalog,
      `no ai-catalog.json (${path(doc.url)}: ${absence(doc)}); only a site that offers agents, MCP servers or skills needs one`,
    );
  }
  if (!doc.judged) return unjudged(S.aiCatalog, doc, 'the ai-catalog.json');
  const { problems, facts } = verdict(doc);
  if (problems.length > 0) return broken(problems);
  const entries = facts?.count ?? 0;
  return pass(
    S.aiCatalog,
    `ai-catalog.json at ${doc.url} (found by ${where}) follows the ARD schema: ${entries} entr${entries === 1 ? 'y' : 'ies'}`,
  );
}

// --- A2A agent card ---

function a2aCard(site: SiteSnapshot): CheckResult | undefined {
  const doc = site.agentDiscovery?.standards?.agentCard;
  if (!doc) return undefined;
  if (!offered(doc))
    return note(
      S.a2aCard,
      `no A2A agent card (${path(doc.url)}: ${absence(doc)}); only a site that runs an A2A agent needs one`,
    );
  if (!doc.judged) return unjudged(S.a2aCard, doc, 'the A2A agent card');
  const { problems, facts, version } = verdict(doc);
  if (problems.length === 0)
    return pass(
      S.a2aCard,
      version === '0.3'
        ? `the A2A agent card of ${quote(facts?.name)} follows A2A 0.3.0 (A2A 1.0 clients read supportedInterfaces, which 0.3 cards do not have)`
        : `the A2A agent card of ${quote(facts?.name)} has what A2A 1.0 requires`,
    );
  const starter = {
    name: 'Assistant',
    description: 'What the agent does, in one sentence.',
    supportedInterfaces: [{ url: `${site.origin}/a2a/v1`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    version: '1.0.0',
    capabilities: { streaming: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'answer',
        name: 'Answer questions',
        description: 'Answers questions about our products.',
        tags: ['support'],
      },
    ],
  };
  return fail(S.a2aCard, {
    detail: `A2A agent card (${version === '0.3' ? 'A2A 0.3.0' : 'A2A 1.0'}): ${problems.join('; ')}`,
    title: 'The A2A agent card is missing what clients need',
    remediation:
      'An A2A agent card (/.well-known/agent-card.json, A2A 1.0 §8) names the agent (name, description, version), says where and how to reach it (supportedInterfaces: url, protocolBinding such as JSONRPC, protocolVersion), what it accepts and returns (defaultInputModes, defaultOutputModes, as media types), its capabilities and at least one skill (id, name, description, tags). Field names are camelCase; a required list needs at least one item. Clients reject a card that misses a required field.',
    agentAction: `Fix /.well-known/agent-card.json: ${problems.join('; ')}.`,
    affectedUrls: [doc.url],
    evidence: problems.map((summary) => ({ type: 'file' as const, url: doc.url, summary })),
    suggestions: [
      textSuggestion('A minimal A2A 1.0 agent card', `${site.origin}/.well-known/agent-card.json`, starter),
    ],
  });
}

// --- Agent Skills index ---

function agentSkills(site: SiteSnapshot): CheckResult | undefined {
  const doc = site.agentDiscovery?.standards?.agentSkills;
  if (!doc) return undefined;
  if (!offered(doc))
    return note(
      S.agentSkills,
      `no Agent Skills index (${path(doc.url)}: ${absence(doc)}); only a site that publishes skills for agents needs one`,
    );
  if (!doc.judged) return unjudged(S.agentSkills, doc, 'the Agent Skills index');
  const { problems: found, facts } = verdict(doc);
  const problems = [...found];
  if (path(doc.url).startsWith('/.well-known/skills/'))
    problems.unshift(
      `the index is at the v0.1.0 path /.well-known/skills/index.json; v${AGENT_SKILLS_RFC.version} moved it to /.well-known/agent-skills/index.json`,
    );
  if (problems.length === 0)
    return pass(
      S.agentSkills,
      `the Agent Skills index lists ${facts?.count ?? 0} skill(s) in the v${AGENT_SKILLS_RFC.version} format`,
    );
  const starter = {
    $schema: AGENT_SKILLS_RFC.schemaUri,
    skills: [
      {
        name: 'order-lookup',
        type: 'skill-md',
        description: 'Look up an order by its number. Use when a customer asks where an order is.',
        url: '/.well-known/agent-skills/order-lookup/SKILL.md',
        digest: 'sha256:<the SHA-256 of SKILL.md, 64 lowercase hex digits>',
      },
    ],
  };
  return fail(S.agentSkills, {
    detail: `Agent Skills index: ${problems.join('; ')}`,
    title: 'The Agent Skills index does not follow the discovery draft',
    remediation: `Agents read /.well-known/agent-skills/index.json (Agent Skills Discovery v${AGENT_SKILLS_RFC.version}): {"$schema": "${AGENT_SKILLS_RFC.schemaUri}", "skills": [...]}, each skill with a name (1 to 64 lowercase letters, digits and single hyphens), a type ("skill-md" or "archive"), a description of at most 1024 characters, the url of its SKILL.md or archive, and the digest "sha256:" + the SHA-256 of that file in hex, which clients check before they use it.`,
    agentAction: `Fix the Agent Skills index: ${problems.join('; ')}.`,
    affectedUrls: [doc.url],
    evidence: problems.map((summary) => ({ type: 'file' as const, url: doc.url, summary })),
    suggestions: [
      textSuggestion('An Agent Skills index (v0.2.0)', `${site.origin}/.well-known/agent-skills/index.json`, starter),
    ],
  });
}

// --- Web Bot Auth ---

/** Pages whose answer asks for an HTTP Message Signature (`Accept-Signature`, RFC 9421 §5.1). */
function askingForSignatures(site: SiteSnapshot): string[] {
  return site.pages
    .filter((p) => p.fetched?.headers['accept-signature'])
    .slice(0, 3)
    .map(
      (p) => `${p.url} (${p.fetched?.status}: Accept-Signature ${quote(p.fetched?.headers['accept-signature'], 80)})`,
    );
}

function webBotAuth(site: SiteSnapshot): CheckResult | undefined {
  const doc = site.agentDiscovery?.standards?.botAuthDirectory;
  if (!doc) return undefined;
  const asks = askingForSignatures(site);
  const asking =
    asks.length > 0
      ? `; asks for signatures on ${asks.join(', ')}`
      : '; no page asked for signatures (Accept-Signature)';
  if (!offered(doc))
    return note(
      S.webBotAuth,
      `no HTTP Message Signatures directory (${path(doc.url)}: ${absence(doc)}): only a site that runs its own agent or crawler publishes one, for the sites it visits to verify its requests${asking}`,
    );
  if (!doc.judged) return unjudged(S.webBotAuth, doc, 'the HTTP Message Signatures directory');
  const { problems, facts } = verdict(doc);
  const signed = doc.signatureInput?.includes('tag="http-message-signatures-directory"') === true;
  const signing = signed
    ? 'the response is signed (tag "http-message-signatures-directory")'
    : 'the response is not signed with the directory tag (RECOMMENDED, to prove the keys are this domain’s)';
  if (problems.length === 0)
    return note(
      S.webBotAuth,
      `publishes a Web Bot Auth key directory with ${facts?.count ?? 0} key(s); ${signing}${asking}`,
    );
  return info(S.webBotAuth, {
    detail: `the HTTP Message Signatures directory: ${problems.join('; ')}${asking}`,
    title: 'The Web Bot Auth key directory has problems',
    remediation: `A site whose own agent or crawler signs its requests (Web Bot Auth, ${WEB_BOT_AUTH_DRAFT.name}) publishes its public keys at /.well-known/http-message-signatures-directory as a JWK Set, served as application/http-message-signatures-directory+json, each key public only (no "d"), its "kid" the key's JWK SHA-256 thumbprint, and RECOMMENDED, the response itself signed with each key (tag "http-message-signatures-directory"). Verifiers that cannot read the directory treat the requests as unsigned.`,
    agentAction: `Fix /.well-known/http-message-signatures-directory: ${problems.join('; ')}.`,
    affectedUrls: [doc.url],
    evidence: [
      ...problems.map((summary) => ({ type: 'file' as const, url: doc.url, summary })),
      { type: 'check' as const, url: doc.url, summary: signing },
    ],
  });
}

// --- x402 ---

function x402(site: SiteSnapshot): CheckResult | undefined {
  const payments = site.agentDiscovery?.standards?.payments ?? [];
  const read = site.pages.length;
  if (payments.length === 0)
    return note(
      S.x402,
      `no page read answered 402 Payment Required (${read} page(s)); x402 is for sites that charge agents per request`,
    );
  const x402Pages = payments.filter((p) => p.judged);
  if (x402Pages.length === 0)
    return note(
      S.x402,
      `${payments.map((p) => p.url).join(', ')} answer${payments.length === 1 ? 's' : ''} 402 Payment Required without x402 payment requirements (no PAYMENT-REQUIRED header, no x402Version in the body)`,
    );
  const broken = x402Pages.filter((p) => (p.judged?.problems.length ?? 0) > 0);
  if (broken.length === 0)
    return note(S.x402, x402Pages.map((p) => `${p.url} asks for payment by x402 v${p.judged?.version}`).join('; '));
  const all = broken.flatMap((p) => (p.judged?.problems ?? []).map((problem) => `${path(p.url)}: ${problem}`));
  return info(S.x402, {
    detail: `402 answers agents cannot pay: ${all.join('; ')}`,
    title: 'x402 payment requirements agents cannot read',
    remediation:
      'An x402 402 answer carries the payment requirements (x402 v2: a PAYMENT-REQUIRED header holding base64-encoded JSON {"x402Version": 2, "resource": {"url": ...}, "accepts": [{"scheme", "network", "amount", "asset", "payTo", "maxTimeoutSeconds"}]}; v1: the same in the body with maxAmountRequired, resource and description in each accepts entry). An agent that cannot read them cannot pay, and moves on.',
    agentAction: `Fix the x402 payment requirements: ${all.join('; ')}.`,
    affectedUrls: broken.map((p) => p.url),
    evidence: broken.flatMap((p) =>
      (p.judged?.problems ?? []).map((summary) => ({ type: 'page' as const, url: p.url, summary })),
    ),
  });
}

// --- UCP and ACP ---

function commerceDocument(
  spec: CheckSpec,
  doc: DocumentFetch | undefined,
  what: { name: string; described: (facts: Facts) => string; title: string; remediation: string },
): CheckResult | undefined {
  if (!doc) return undefined;
  if (!offered(doc)) return note(spec, `no ${what.name} (${path(doc.url)}: ${absence(doc)})`);
  if (!doc.judged) return unjudged(spec, doc, what.name);
  const { problems, facts } = verdict(doc);
  if (problems.length === 0) return note(spec, `publishes ${what.name}: ${what.described(facts ?? {})}`);
  return info(spec, {
    detail: `${what.name}: ${problems.join('; ')}`,
    title: what.title,
    remediation: what.remediation,
    agentAction: `Fix ${path(doc.url)}: ${problems.join('; ')}.`,
    affectedUrls: [doc.url],
    evidence: problems.map((summary) => ({ type: 'file' as const, url: doc.url, summary })),
  });
}

function ucp(site: SiteSnapshot): CheckResult | undefined {
  const listed = (names: string[] | undefined) => (names ?? []).map((k) => quote(k)).join(', ') || 'none';
  return commerceDocument(S.ucp, site.agentDiscovery?.standards?.ucp, {
    name: 'a UCP profile',
    described: (facts) =>
      `UCP ${quote(facts.version)}, services ${listed(facts.services)}, capabilities ${listed(facts.capabilities)}`,
    title: 'The UCP profile does not follow its schema',
    remediation: `A business profile at /.well-known/ucp (Universal Commerce Protocol ${src.ucp.ref}) is {"ucp": {"version": "YYYY-MM-DD", "services": {...}, "capabilities": {...}, "payment_handlers": {...}}, "signing_keys": [...]}, keyed by reverse-domain names (dev.ucp.shopping); platforms validate it against the published schema and reject the request when it fails.`,
  });
}

function acp(site: SiteSnapshot): CheckResult | undefined {
  return commerceDocument(S.acp, site.agentDiscovery?.standards?.acp, {
    name: 'an ACP discovery document',
    described: (facts) =>
      `ACP ${quote(facts.version)} at ${quote(facts.url)}, services ${(facts.services ?? []).map((s) => quote(s)).join(', ')}`,
    title: 'The ACP discovery document does not follow its schema',
    remediation: `/.well-known/acp.json (Agentic Commerce Protocol ${src.acp.version}) is {"protocol": {"name": "acp", "version": "YYYY-MM-DD", "supported_versions": [...]}, "api_base_url": "https://...", "transports": ["rest"], "capabilities": {"services": ["checkout"]}}; agents read it before they open a checkout session.`,
  });
}

// --- AP2 ---

/** Where the site advertises AP2 (it has no document of its own): the agent card's extensions, the UCP capabilities. */
function ap2(site: SiteSnapshot): CheckResult | undefined {
  const standards = site.agentDiscovery?.standards;
  if (!standards) return undefined;
  const seen: string[] = [];
  const card = offered(standards.agentCard) ? standards.agentCard.judged?.facts : undefined;
  for (const uri of card?.extensions ?? [])
    if (uri.toLowerCase().includes('google-agentic-commerce/ap2'))
      seen.push(`the A2A agent card's extension ${quote(uri)}`);
  const profile = offered(standards.ucp) ? standards.ucp.judged?.facts : undefined;
  if (profile?.capabilities?.includes('dev.ucp.shopping.ap2_mandate'))
    seen.push('the UCP profile’s capability dev.ucp.shopping.ap2_mandate');
  if (seen.length > 0) return note(S.ap2, `advertises AP2 in ${seen.join(' and ')}`);
  return note(
    S.ap2,
    `no AP2 advertisement: AP2 (${AP2_SPEC.ref}) has no document of its own; a site advertises it as an A2A agent card extension or as the UCP capability dev.ucp.shopping.ap2_mandate, and neither was found`,
  );
}

/** The agent standards' rows; none on a local scan (they describe a deployed site). */
export function agentStandardChecks(site: SiteSnapshot): CheckResult[] {
  if (!site.agentDiscovery?.standards) return [];
  return [aiCatalog, a2aCard, agentSkills, webBotAuth, x402, ucp, acp, ap2]
    .map((check) => check(site))
    .filter((row): row is CheckResult => row !== undefined);
}

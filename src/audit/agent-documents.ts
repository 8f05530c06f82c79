// The documents of the agent standards of 2026 (issue 29) judged against their schemas: the ARD
// ai-catalog.json, the A2A agent card, an Agent Skills index, a Web Bot Auth key directory, the UCP
// and ACP profiles, and x402 payment requirements. Their text is the site's (hostile, up to
// DOCUMENT_MAX), so they are judged on a CPU thread (cpu/tasks.ts) during discovery, and the checks
// (checks/agent-standards.ts) read the verdicts. The published schemas are vendored in
// data/agent-schemas.ts; where a project publishes none, the schema below is written from its
// specification's tables and says so in its `$comment`.
import { createHash } from 'node:crypto';
import {
  A2A_03_AGENT_CARD_SCHEMA,
  A2A_AGENT_CARD_SCHEMA,
  ACP_DISCOVERY_SCHEMA,
  ARD_CATALOG_SCHEMA,
  UCP_PROFILE_SCHEMAS,
} from './data/agent-schemas.ts';
import { quote } from './quote.ts';
import { DOCUMENT_MAX, readJson, schemaProblems } from './schema-check.ts';

/** The Agent Skills discovery draft (cloudflare/agent-skills-discovery-rfc), v0.2.0. */
export const AGENT_SKILLS_RFC = {
  project: 'cloudflare/agent-skills-discovery-rfc',
  commit: '1bd1167983fa5ac9cd47987710c525308eda1a98',
  version: '0.2.0',
  schemaUri: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
} as const;
/** x402 (coinbase/x402): the v2 specification and HTTP transport, and v1's. */
export const X402_SPEC = { project: 'coinbase/x402', commit: 'dd927a26cfefc98c24b3ec38b3a8f204dad0c60d' } as const;
/** Web Bot Auth: the IETF webbotauth protocol draft (thibmeu/http-message-signatures-directory). */
export const WEB_BOT_AUTH_DRAFT = {
  name: 'draft-meunier-webbotauth-httpsig-protocol-02',
  project: 'thibmeu/http-message-signatures-directory',
  commit: '416ec9ba782ff8f503ab8b7966576fe4a3b7a8f0',
} as const;
/** AP2 (google-agentic-commerce/AP2) v0.2.0: no document of its own; an A2A extension and a UCP capability. */
export const AP2_SPEC = { project: 'google-agentic-commerce/AP2', ref: 'v0.2.0' } as const;

// What the RFC's tables require of an Agent Skills index (the project publishes no JSON schema: its
// `$schema` URI is an identifier "that does not need to be resolvable").
const SKILL_NAME = { type: 'string', maxLength: 64, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' };
export const AGENT_SKILLS_SCHEMA = {
  $comment: `From the tables of ${AGENT_SKILLS_RFC.project} README.md v${AGENT_SKILLS_RFC.version} at ${AGENT_SKILLS_RFC.commit}`,
  type: 'object',
  required: ['$schema', 'skills'],
  properties: {
    $schema: { const: AGENT_SKILLS_RFC.schemaUri },
    skills: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'type', 'description', 'url', 'digest'],
        properties: {
          name: SKILL_NAME,
          type: { enum: ['skill-md', 'archive'] },
          description: { type: 'string', minLength: 1, maxLength: 1024 },
          url: { type: 'string', minLength: 1 },
          digest: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
        },
      },
    },
  },
};
/** The v0.1.0 draft's index (no `$schema`, skills with `files`), which clients still read. */
export const AGENT_SKILLS_01_SCHEMA = {
  $comment: `From the tables of ${AGENT_SKILLS_RFC.project} README.md v0.1.0 at d9532a1fa4a744a6f7b938721c23f439af272b7c`,
  type: 'object',
  required: ['skills'],
  properties: {
    skills: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'description', 'files'],
        properties: {
          name: SKILL_NAME,
          description: { type: 'string', minLength: 1, maxLength: 1024 },
          files: { type: 'array', minItems: 1, items: { type: 'string' } },
        },
      },
    },
  },
};

// x402's PaymentRequired, from the field tables of specs/x402-specification-v2.md §5.1 and v1's.
export const X402_V2_SCHEMA = {
  $comment: `From the tables of ${X402_SPEC.project} specs/x402-specification-v2.md §5.1 at ${X402_SPEC.commit}`,
  type: 'object',
  required: ['x402Version', 'resource', 'accepts'],
  properties: {
    x402Version: { const: 2 },
    error: { type: 'string' },
    resource: {
      type: 'object',
      required: ['url'],
      properties: {
        url: { type: 'string', minLength: 1 },
        description: { type: 'string' },
        mimeType: { type: 'string' },
      },
    },
    accepts: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['scheme', 'network', 'amount', 'asset', 'payTo', 'maxTimeoutSeconds'],
        properties: {
          scheme: { type: 'string' },
          network: { type: 'string' },
          amount: { type: 'string' },
          asset: { type: 'string' },
          payTo: { type: 'string' },
          maxTimeoutSeconds: { type: 'number' },
          extra: { type: 'object' },
        },
      },
    },
    extensions: { type: 'object' },
  },
};
export const X402_V1_SCHEMA = {
  $comment: `From the tables of ${X402_SPEC.project} specs/x402-specification-v1.md at ${X402_SPEC.commit}`,
  type: 'object',
  required: ['x402Version', 'accepts'],
  properties: {
    x402Version: { const: 1 },
    error: { type: 'string' },
    accepts: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: [
          'scheme',
          'network',
          'maxAmountRequired',
          'asset',
          'payTo',
          'resource',
          'description',
          'maxTimeoutSeconds',
        ],
        properties: {
          scheme: { type: 'string' },
          network: { type: 'string' },
          maxAmountRequired: { type: 'string' },
          asset: { type: 'string' },
          payTo: { type: 'string' },
          resource: { type: 'string' },
          description: { type: 'string' },
          maxTimeoutSeconds: { type: 'number' },
        },
      },
    },
  },
};

// A JWK Set of public keys (RFC 7517 §5, RFC 8037 for OKP), as the Web Bot Auth draft's directory format is.
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'];
const keyNeeds = (kty: string, members: string[]) => ({
  if: { properties: { kty: { const: kty } }, required: ['kty'] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, never awaited
  then: { required: members },
});
export const SIGNATURES_DIRECTORY_SCHEMA = {
  $comment: `JWKS (RFC 7517 §5) as ${WEB_BOT_AUTH_DRAFT.name} §"Directory Format" requires`,
  type: 'object',
  required: ['keys'],
  properties: {
    keys: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['kty'],
        properties: { kty: { type: 'string' }, kid: { type: 'string' }, alg: { type: 'string' } },
        allOf: [keyNeeds('OKP', ['crv', 'x']), keyNeeds('EC', ['crv', 'x', 'y']), keyNeeds('RSA', ['n', 'e'])],
        not: { anyOf: PRIVATE_MEMBERS.map((m) => ({ required: [m] })) },
      },
    },
  },
};
/** The HTTP Signature Algorithms registry (RFC 9421 §6.2.2), which the draft restricts `alg` to. */
const HTTP_SIGNATURE_ALGORITHMS = new Set([
  'rsa-pss-sha512',
  'rsa-v1_5-sha256',
  'hmac-sha256',
  'ecdsa-p256-sha256',
  'ecdsa-p384-sha384',
  'ed25519',
]);

/**
 * What the checks say of a document besides its problems, read from it bounded (the document itself
 * stays on the CPU thread: a hostile one can be too deep to pass between threads).
 */
export interface Facts {
  name?: string;
  version?: string;
  url?: string;
  /** Entries, skills, keys or ways to pay. */
  count?: number;
  services?: string[];
  capabilities?: string[];
  /** The A2A card's extension URIs. */
  extensions?: string[];
}

/** A document's verdict: what is wrong, the version of the standard it follows, and its facts. */
export interface Judged {
  problems: string[];
  version?: string;
  facts?: Facts;
}

export type AgentDocumentKind = 'ard' | 'a2a' | 'skills' | 'directory' | 'ucp' | 'acp';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The A2A version a card follows: 0.3 cards name it at the top level (and have no supportedInterfaces). */
export function cardVersion(card: unknown): '1.0' | '0.3' {
  const value = isObject(card) ? card : {};
  return typeof value.protocolVersion === 'string' &&
    value.protocolVersion.startsWith('0.') &&
    !('supportedInterfaces' in value)
    ? '0.3'
    : '1.0';
}

/** What the schema cannot say: interfaces over HTTP need an absolute https URL (a2a.proto, AgentInterface.url). */
function interfaceProblems(card: Record<string, unknown>): string[] {
  const interfaces = Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : [];
  const problems: string[] = [];
  for (const [i, item] of interfaces.slice(0, 50).entries()) {
    const face = isObject(item) ? item : {};
    if (face.protocolBinding !== 'JSONRPC' && face.protocolBinding !== 'HTTP+JSON') continue;
    const url = typeof face.url === 'string' ? face.url : '';
    let https = false;
    try {
      https = new URL(url).protocol === 'https:';
    } catch {
      https = false;
    }
    if (!https && url !== '')
      problems.push(`${quote(`supportedInterfaces[${i}].url`)} (${quote(url, 80)}) is not an absolute https URL`);
  }
  return problems;
}

/** RFC 7638 JWK SHA-256 thumbprint, for the key types whose members it defines (RFC 8037 for OKP). */
export function jwkThumbprint(key: Record<string, unknown>): string | undefined {
  const members: Record<string, string[]> = {
    OKP: ['crv', 'kty', 'x'],
    EC: ['crv', 'kty', 'x', 'y'],
    RSA: ['e', 'kty', 'n'],
  };
  const needed = members[String(key.kty)];
  if (!needed || needed.some((m) => typeof key[m] !== 'string')) return undefined;
  const canonical = JSON.stringify(Object.fromEntries(needed.map((m) => [m, key[m]])));
  return createHash('sha256').update(canonical).digest('base64url');
}

/** What the directory's schema does not say: its media type, kid as the thumbprint, alg from the registry. */
function directoryExtraProblems(contentType: string, keys: unknown[]): string[] {
  const problems: string[] = [];
  if (!contentType.startsWith('application/http-message-signatures-directory+json'))
    problems.push(
      `served as ${quote(contentType || 'no media type')}, not application/http-message-signatures-directory+json (which the draft requires at the well-known URI)`,
    );
  for (const [i, item] of keys.slice(0, 50).entries()) {
    if (!isObject(item)) continue;
    const thumbprint = jwkThumbprint(item);
    if (typeof item.kid === 'string' && thumbprint && item.kid !== thumbprint)
      problems.push(`${quote(`keys[${i}].kid`)} is not the key’s JWK SHA-256 thumbprint (${thumbprint})`);
    if (typeof item.alg === 'string' && !HTTP_SIGNATURE_ALGORITHMS.has(item.alg))
      problems.push(
        `${quote(`keys[${i}].alg`)} is ${quote(item.alg)}, not an HTTP Signature Algorithm (${[...HTTP_SIGNATURE_ALGORITHMS].join(', ')})`,
      );
  }
  return problems;
}

const LISTED = 20;
const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 300) : undefined);
const member = (value: unknown, key: string) => (isObject(value) ? value[key] : undefined);
const count = (value: unknown) => (Array.isArray(value) ? value.length : undefined);
const names = (value: unknown) =>
  isObject(value)
    ? Object.keys(value)
        .slice(0, LISTED)
        .map((k) => k.slice(0, 200))
    : [];
const strings = (value: unknown) =>
  Array.isArray(value)
    ? value.slice(0, LISTED).flatMap((item) => (typeof item === 'string' ? [item.slice(0, 200)] : []))
    : [];
/** The facts a document has (none undefined, no empty list). */
const defined = (facts: Facts): Facts =>
  Object.fromEntries(Object.entries(facts).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)));

function factsOf(kind: AgentDocumentKind, value: unknown): Facts {
  switch (kind) {
    case 'ard':
      return defined({ count: count(member(value, 'entries')) });
    case 'a2a': {
      const extensions = member(member(value, 'capabilities'), 'extensions');
      return defined({
        name: text(member(value, 'name')),
        version: text(member(value, 'version')),
        extensions: (Array.isArray(extensions) ? extensions.slice(0, 50) : []).flatMap((e) => {
          const uri = text(member(e, 'uri'));
          return uri ? [uri] : [];
        }),
      });
    }
    case 'skills':
      return defined({ count: count(member(value, 'skills')) });
    case 'directory':
      return defined({ count: count(member(value, 'keys')) });
    case 'ucp': {
      const profile = member(value, 'ucp');
      return defined({
        version: text(member(profile, 'version')),
        services: names(member(profile, 'services')),
        capabilities: names(member(profile, 'capabilities')),
      });
    }
    case 'acp':
      return defined({
        version: text(member(member(value, 'protocol'), 'version')),
        url: text(member(value, 'api_base_url')),
        services: strings(member(member(value, 'capabilities'), 'services')),
      });
  }
}

/** /.well-known/ucp is a business's profile: the published schema's business_profile definition. */
const UCP_BUSINESS = { $ref: `${UCP_PROFILE_SCHEMAS[0]?.$id}#/$defs/business_profile` };

/** One document of the agent standards against its schema (a CPU task: plain data in and out). */
export function judgeAgentDocument(kind: AgentDocumentKind, body: string, oversize: boolean, contentType = ''): Judged {
  const read = readJson(body, oversize);
  if ('problem' in read) return { problems: [`the document ${read.problem}`] };
  const { problems, version } = judgeValue(kind, read.value, contentType);
  return { problems, ...(version ? { version } : {}), facts: factsOf(kind, read.value) };
}

function judgeValue(
  kind: AgentDocumentKind,
  value: unknown,
  contentType: string,
): { problems: string[]; version?: string } {
  switch (kind) {
    case 'ard':
      return { problems: schemaProblems('ard', ARD_CATALOG_SCHEMA, value) };
    case 'a2a': {
      const version = cardVersion(value);
      if (version === '0.3') return { version, problems: schemaProblems('a2a03', A2A_03_AGENT_CARD_SCHEMA, value) };
      const problems = schemaProblems('a2a', A2A_AGENT_CARD_SCHEMA, value);
      if (isObject(value)) problems.push(...interfaceProblems(value));
      return { version, problems };
    }
    case 'skills':
      if (isObject(value) && !('$schema' in value))
        return {
          version: '0.1.0',
          problems: [
            `no "$schema": clients read it as a v0.1.0 index (skills with "files"), and v${AGENT_SKILLS_RFC.version} requires "$schema": "${AGENT_SKILLS_RFC.schemaUri}"`,
            ...schemaProblems('skills01', AGENT_SKILLS_01_SCHEMA, value),
          ],
        };
      return { version: AGENT_SKILLS_RFC.version, problems: schemaProblems('skills', AGENT_SKILLS_SCHEMA, value) };
    case 'directory': {
      const keys = isObject(value) && Array.isArray(value.keys) ? value.keys : [];
      return {
        problems: [
          ...schemaProblems('http-message-signatures-directory', SIGNATURES_DIRECTORY_SCHEMA, value),
          ...directoryExtraProblems(contentType, keys),
        ],
      };
    }
    case 'ucp':
      return { problems: schemaProblems('ucp', UCP_BUSINESS, value, UCP_PROFILE_SCHEMAS) };
    case 'acp':
      return { problems: schemaProblems('acp', ACP_DISCOVERY_SCHEMA, value) };
  }
}

/**
 * The x402 payment requirements of a 402 answer, judged: v2's PAYMENT-REQUIRED header (base64 JSON),
 * or a body with `x402Version` (v1, or v2 written there); undefined when the answer has neither.
 */
export function judgePaymentRequired(header: string | undefined, body: string): Judged | undefined {
  if (header) {
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(header.slice(0, DOCUMENT_MAX), 'base64').toString('utf8'));
    } catch {
      return { version: '2', problems: ['the PAYMENT-REQUIRED header is not base64-encoded JSON'] };
    }
    return {
      version: '2',
      problems: schemaProblems('x402v2', X402_V2_SCHEMA, value),
      facts: defined({ count: count(member(value, 'accepts')) }),
    };
  }
  const read = readJson(body.slice(0, DOCUMENT_MAX), body.length > DOCUMENT_MAX);
  if (!('value' in read) || !isObject(read.value) || !('x402Version' in read.value)) return undefined;
  const v2 = read.value.x402Version === 2;
  return {
    version: v2 ? '2' : '1',
    problems: v2
      ? schemaProblems('x402v2', X402_V2_SCHEMA, read.value)
      : schemaProblems('x402v1', X402_V1_SCHEMA, read.value),
    facts: defined({ count: count(read.value.accepts) }),
  };
}

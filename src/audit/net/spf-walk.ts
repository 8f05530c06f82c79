// The SPF evaluation tree of a domain as a receiver walks it (RFC 7208 4.6.4): every include: and
// redirect= followed through the audit's resolver, and every term that costs a DNS lookup counted,
// so the checks can say whether the domain stays within 10 lookups and 2 void lookups, and which
// chain of includes went past. Records are DNS text the domain (or its senders) control: split on
// white space, never matched by a backtracking pattern; the walk is bounded in lookups, depth and time.
import { type AuditResolver, NO_DATA_CODES } from './resolver.ts';

/** RFC 7208 4.6.4: at most 10 terms that cause DNS lookups; more is a permerror. */
export const SPF_LOOKUP_LIMIT = 10;
/** RFC 7208 4.6.4: at most 2 lookups that answer nothing (NXDOMAIN, or no records). */
export const SPF_VOID_LIMIT = 2;
/** RFC 7208 4.6.4: an `mx` whose domain has more than 10 MX records is a permerror. */
export const SPF_MX_LIMIT = 10;
/** The walk stops this many lookups past the limit: enough to show how far over, no more queries. */
const LOOKUP_MARGIN = 3;
/** Includes nested deeper than this are not followed (the lookup bound stops a walk sooner anyway). */
export const SPF_MAX_DEPTH = 10;
/** The longest a whole walk may take; each query also has the resolver's own timeout. */
export const SPF_WALK_DEADLINE_MS = 15_000;

export type SpfTermKind = 'include' | 'redirect' | 'a' | 'mx' | 'ptr' | 'exists' | 'all' | 'other';

export interface SpfTerm {
  /** The term as written. */
  text: string;
  kind: SpfTermKind;
  /** The domain it names (include:, redirect=, a:, mx:, exists:, ptr:); none for a bare `a` or `mx`. */
  target?: string;
}

/** Mechanisms and modifiers that cost a DNS lookup (RFC 7208 4.6.4). */
const COUNTED: ReadonlySet<SpfTermKind> = new Set(['include', 'redirect', 'a', 'mx', 'ptr', 'exists']);

const QUALIFIERS = '+-~?';

/** A term's kind and domain-spec, read by position (no pattern over the record's text). */
export function spfTerm(text: string): SpfTerm {
  const lower = text.toLowerCase();
  if (lower.startsWith('redirect=')) return { text, kind: 'redirect', target: text.slice('redirect='.length) };
  const body = QUALIFIERS.includes(lower[0] ?? '') ? lower.slice(1) : lower;
  const raw = QUALIFIERS.includes(text[0] ?? '') ? text.slice(1) : text;
  // The mechanism's name runs to the first ':' (a domain-spec follows) or '/' (a CIDR length follows).
  let end = 0;
  while (end < body.length && body[end] !== ':' && body[end] !== '/') end++;
  const name = body.slice(0, end);
  const spec = body[end] === ':' ? raw.slice(end + 1) : undefined;
  // a:domain/24 and mx:domain//64: the domain-spec ends at the CIDR length.
  const domain =
    spec === undefined ? undefined : spec.slice(0, spec.indexOf('/') < 0 ? spec.length : spec.indexOf('/'));
  switch (name) {
    case 'include':
    case 'exists':
    case 'a':
    case 'mx':
    case 'ptr':
      return domain ? { text, kind: name, target: domain } : { text, kind: name };
    case 'all':
      return end === body.length ? { text, kind: 'all' } : { text, kind: 'other' };
    default:
      return { text, kind: 'other' };
  }
}

/**
 * The terms a receiver evaluates, in its order: the mechanisms up to `all` (RFC 7208 5.1: those after
 * it are never tested), then `redirect=`, which applies only to a record with no `all` (6.1).
 */
export function evaluatedTerms(record: string): SpfTerm[] {
  const terms = record.trim().split(/\s+/).slice(1).map(spfTerm);
  const all = terms.findIndex((t) => t.kind === 'all');
  const mechanisms = (all < 0 ? terms : terms.slice(0, all + 1)).filter((t) => t.kind !== 'redirect');
  const redirect = all < 0 ? terms.find((t) => t.kind === 'redirect') : undefined;
  return redirect ? [...mechanisms, redirect] : mechanisms;
}

/** The terms of `record` alone that a receiver evaluates and that cost a DNS lookup. */
export function lookupTerms(record: string): SpfTerm[] {
  return evaluatedTerms(record).filter((t) => COUNTED.has(t.kind));
}

/** One counted lookup: the term, and the chain of domains whose records led to it (the domain first). */
export interface SpfLookup {
  chain: string[];
  term: string;
}

export interface SpfProblem extends SpfLookup {
  /** Where the problem is (the target of an include:, or the domain of an mx). */
  target: string;
  /** What a site owner is told. */
  problem: string;
}

export interface SpfWalk {
  /** Lookups counted, in the order a receiver makes them, up to the limit and a margin (then the walk stops). */
  lookups: SpfLookup[];
  /** The walk stopped at the bound: there may be more lookups than `lookups` holds. */
  stoppedAtBound: boolean;
  /** Lookups that answered nothing (RFC 7208 4.6.4 "void lookups"). */
  voids: SpfLookup[];
  /** include: or redirect= targets with no SPF record, or with several (each a permerror). */
  missing: SpfProblem[];
  /** include: or redirect= targets already being evaluated further up the chain. */
  loops: SpfProblem[];
  /** mx terms whose domain has more than 10 MX records. */
  mxOverLimit: SpfProblem[];
  /** Targets with a macro (%{...}): they depend on the sender, so they are counted but not followed. */
  macros: SpfLookup[];
  /** Records read, the domain's own first. */
  records: Array<{ domain: string; record: string }>;
  /** Why the count may be short: a DNS error (a temperror at the receiver) or the walk's time bound. */
  incomplete?: string;
}

interface Walker {
  resolver: AuditResolver;
  walk: SpfWalk;
  txt: Map<string, Promise<Answer<string[][]>>>;
  deadline: number;
}

type Answer<T> = { ok: true; value: T } | { ok: false; void: boolean; error?: string };

class WalkTimeout extends Error {}

/** The query, or void (no data) or an error, within the walk's deadline. */
async function ask<T>(w: Walker, query: () => Promise<T>, what: string): Promise<Answer<T>> {
  const left = w.deadline - Date.now();
  if (left <= 0) throw new WalkTimeout();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WalkTimeout()), left);
  });
  try {
    return { ok: true, value: await Promise.race([query(), late]) };
  } catch (error) {
    if (error instanceof WalkTimeout) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (NO_DATA_CODES.has(code)) return { ok: false, void: true };
    return { ok: false, void: false, error: `${what}: ${code || (error as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}

const joinTxt = (chunks: string[][]) => chunks.map((parts) => parts.join(''));
const isSpf = (text: string) => /^v=spf1(\s|$)/i.test(text);

const NAME_CHARS = new Set('abcdefghijklmnopqrstuvwxyz0123456789._-');

/** A domain-spec a receiver can look up: letters, digits, hyphens, underscores and dots, at most 253 long. */
function lookupName(spec: string): string | undefined {
  const name = spec.toLowerCase().replace(/\.$/, '');
  if (name.length === 0 || name.length > 253 || !name.includes('.')) return undefined;
  for (const c of name) if (!NAME_CHARS.has(c)) return undefined;
  return name;
}

function stop(w: Walker): boolean {
  return w.walk.stoppedAtBound || w.walk.incomplete !== undefined;
}

async function walkRecord(w: Walker, domain: string, record: string, chain: string[]): Promise<void> {
  for (const term of evaluatedTerms(record)) {
    if (stop(w)) return;
    if (!COUNTED.has(term.kind)) continue;
    const lookup = { chain, term: term.text };
    w.walk.lookups.push(lookup);
    if (w.walk.lookups.length > SPF_LOOKUP_LIMIT + LOOKUP_MARGIN) {
      w.walk.stoppedAtBound = true;
      return;
    }
    if (term.kind === 'ptr') continue; // its names come from the sender's address: nothing to ask here
    const follows = term.kind === 'include' || term.kind === 'redirect';
    if (follows && !term.target) {
      w.walk.missing.push({ ...lookup, target: '', problem: 'names no domain' });
      continue;
    }
    const spec = term.target ?? domain;
    if (spec.includes('%')) {
      w.walk.macros.push(lookup);
      continue;
    }
    const target = lookupName(spec);
    if (!target) {
      if (follows) w.walk.missing.push({ ...lookup, target: spec.slice(0, 100), problem: 'is not a domain name' });
      continue;
    }
    if (follows) await follow(w, lookup, target);
    else await probe(w, lookup, term.kind, target);
  }
}

/** An include: or redirect=: the target's one SPF record, evaluated in turn. */
async function follow(w: Walker, lookup: SpfLookup, target: string): Promise<void> {
  if (lookup.chain.includes(target)) {
    w.walk.loops.push({ ...lookup, target, problem: 'is already being evaluated higher in the chain (a loop)' });
    return;
  }
  if (lookup.chain.length >= SPF_MAX_DEPTH) {
    w.walk.stoppedAtBound = true;
    return;
  }
  let pending = w.txt.get(target);
  if (!pending) {
    pending = ask(w, () => w.resolver.resolveTxt(target), `TXT ${target}`);
    w.txt.set(target, pending);
  }
  const answer = await pending;
  if (!answer.ok && !answer.void) {
    w.walk.incomplete = answer.error;
    return;
  }
  const records = answer.ok ? joinTxt(answer.value).filter(isSpf) : [];
  if (!answer.ok || answer.value.length === 0) w.walk.voids.push(lookup);
  if (records.length !== 1) {
    w.walk.missing.push({
      ...lookup,
      target,
      problem:
        records.length === 0
          ? 'has no SPF record'
          : `has ${records.length} SPF records (a receiver takes none of them)`,
    });
    return;
  }
  const record = records[0] as string;
  if (w.walk.records.length < 50) w.walk.records.push({ domain: target, record });
  await walkRecord(w, target, record, [...lookup.chain, target]);
}

/** An a, mx or exists term: asked only to see whether it answers nothing (a void lookup). */
async function probe(w: Walker, lookup: SpfLookup, kind: SpfTermKind, target: string): Promise<void> {
  if (kind === 'mx') {
    const answer = await ask(w, () => w.resolver.resolveMx(target), `MX ${target}`);
    if (answer.ok && answer.value.length > SPF_MX_LIMIT)
      w.walk.mxOverLimit.push({
        ...lookup,
        target,
        problem: `has ${answer.value.length} MX records, over the ${SPF_MX_LIMIT} a receiver looks up`,
      });
    if (!answer.ok && !answer.void) w.walk.incomplete = answer.error;
    else if (!answer.ok || answer.value.length === 0) w.walk.voids.push(lookup);
    return;
  }
  // `a` matches an IPv4 sender by A and an IPv6 one by AAAA: void for every sender only when neither exists.
  const answer = await ask(w, () => w.resolver.addresses(target), `A/AAAA ${target}`);
  if (!answer.ok && !answer.void) w.walk.incomplete = answer.error;
  else if (!answer.ok || answer.value.length === 0) w.walk.voids.push(lookup);
}

/** Walks `record`, the one SPF record of `domain`, as a receiver would for mail matching none of it. */
export async function walkSpf(
  domain: string,
  record: string,
  resolver: AuditResolver,
  options: { deadlineMs?: number } = {},
): Promise<SpfWalk> {
  const walk: SpfWalk = {
    lookups: [],
    stoppedAtBound: false,
    voids: [],
    missing: [],
    loops: [],
    mxOverLimit: [],
    macros: [],
    records: [{ domain, record }],
  };
  const w: Walker = {
    resolver,
    walk,
    txt: new Map(),
    deadline: Date.now() + (options.deadlineMs ?? SPF_WALK_DEADLINE_MS),
  };
  try {
    await walkRecord(w, domain, record, [domain]);
  } catch (error) {
    if (!(error instanceof WalkTimeout)) throw error;
    walk.incomplete = `the lookups took over ${options.deadlineMs ?? SPF_WALK_DEADLINE_MS} ms in all`;
  }
  return walk;
}

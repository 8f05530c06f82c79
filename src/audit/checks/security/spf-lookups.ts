// spf-lookups (dns_email_trust): the domain's SPF as a receiver evaluates it, includes and redirects
// followed (net/spf-walk.ts). Past 10 DNS lookups, past 2 lookups that answer nothing, an include
// with no SPF record, an include loop or an mx of more than 10 hosts, a receiver stops with a
// permerror and the mail fails SPF (RFC 7208 4.6.4, 5.2). The record's own verdicts (one record,
// a strict `all`) stay with the `spf` check.
import { type CheckResult, type CheckSpec, fail, note, pass, unverified } from '../../checks.ts';
import type { DnsFacts } from '../../net/dns-facts.ts';
import {
  lookupTerms,
  SPF_LOOKUP_LIMIT,
  SPF_VOID_LIMIT,
  type SpfLookup,
  type SpfProblem,
  type SpfWalk,
} from '../../net/spf-walk.ts';
import { quote } from '../../quote.ts';
import { RFC } from '../../standards.ts';
import { dnsSuggestion } from '../../suggestions.ts';

/**
 * Prints every term of the SPF tree that costs a DNS lookup, indented by how deep the includes go,
 * then the count: more than 10 (or a "NO SPF RECORD" line) is the defect. Stops at `all` as receivers
 * do, and at 11 levels, so a loop prints more than 10 lines and ends. bash and zsh alike.
 */
const VERIFY = `spf() { local r; r=$(dig +short TXT "$1" </dev/null | sed 's/" "//g; s/"//g' | grep -iE '^v=spf1( |$)'); [ -n "$r" ] || echo "$2$1: NO SPF RECORD"; echo "$r" | tr 'A-Z ' 'a-z\\n' | while read -r t; do case "$t" in all|[-+~?]all) break;; *include:*|redirect=*) echo "$2$1 $t"; [ \${#2} -lt 22 ] && spf "\${t#*[:=]}" "$2  ";; a|a[:/]*|[-+~?]a|[-+~?]a[:/]*|mx|mx[:/]*|[-+~?]mx|[-+~?]mx[:/]*|ptr|ptr:*|[-+~?]ptr|[-+~?]ptr:*|exists:*|[-+~?]exists:*) echo "$2$1 $t";; esac; done; }; spf {domain} | awk '/NO SPF RECORD/ {print; next} {print; n++} END {print n+0 " DNS lookups (receivers allow 10)"}'`;

export const SPF_LOOKUPS_SPEC = {
  id: 'spf-lookups',
  label: 'SPF resolves within 10 DNS lookups, every include found',
  category: 'security',
  pillar: 'dns_email_trust',
  severity: 'high',
  cite: {
    references: [
      RFC(7208, '4.6.4', 'DNS Lookup Limits'),
      RFC(7208, '5.2', 'include (a target with no SPF record is a permerror)'),
    ],
    verify: VERIFY,
    anchors: [],
  },
} satisfies CheckSpec;

const S = SPF_LOOKUPS_SPEC;

/** Facts gathered without a walk: the record's own terms, no include followed. */
function ownTermsOnly(domain: string, record: string): SpfWalk {
  return {
    lookups: lookupTerms(record).map((t) => ({ chain: [domain], term: t.text })),
    stoppedAtBound: false,
    voids: [],
    missing: [],
    loops: [],
    mxOverLimit: [],
    macros: [],
    records: [{ domain, record }],
  };
}

/** Each term of the domain's own record with the lookups it costs, its includes' included. */
export function spfBranches(walk: SpfWalk): Array<{ term: string; lookups: number }> {
  const branches: Array<{ term: string; lookups: number }> = [];
  for (const lookup of walk.lookups) {
    const last = branches.at(-1);
    if (lookup.chain.length === 1 || !last) branches.push({ term: lookup.term, lookups: 1 });
    else last.lookups++;
  }
  return branches;
}

/** `include:x in the record of b.example (a.example → b.example)`: where a term sits. */
function where(lookup: SpfLookup): string {
  const at = lookup.chain.at(-1) as string;
  const path = lookup.chain.length > 1 ? ` (${lookup.chain.join(' → ')})` : '';
  return `${quote(lookup.term)} in the record of ${at}${path}`;
}

const branchText = (walk: SpfWalk) =>
  spfBranches(walk)
    .map((b) => `${b.term} ${b.lookups}`)
    .join(', ');

type Kind = 'over' | 'missing' | 'loop' | 'void' | 'mx';

const TITLES: Record<Kind, string> = {
  over: `SPF needs more than ${SPF_LOOKUP_LIMIT} DNS lookups, so receivers fail it`,
  missing: 'SPF includes a domain with no SPF record, so receivers fail it',
  loop: 'SPF includes loop back on themselves, so receivers fail it',
  void: `SPF names more than ${SPF_VOID_LIMIT} domains that do not exist`,
  mx: 'SPF uses mx on a domain with more than 10 mail servers',
};

const REMEDIES: Record<Kind, string> = {
  over: `Receivers stop after ${SPF_LOOKUP_LIMIT} DNS lookups and treat the SPF record as broken, so mail from the domain fails SPF (and DMARC, unless DKIM passes). Remove includes of services that no longer send your mail; replace a heavy include with the ip4:/ip6: ranges it lists ("flattening": re-check them when the provider changes its ranges); or move a sender to a subdomain with its own SPF record.`,
  missing:
    'An include of a domain that publishes no SPF record breaks the whole record. Remove it, or correct its name from the sending service’s setup guide.',
  loop: 'Remove the include that leads back to a record already in the chain.',
  void: `Receivers allow ${SPF_VOID_LIMIT} lookups that answer nothing. Remove a, mx, include and exists terms naming domains that no longer exist.`,
  mx: 'Replace mx with the ip4:/ip6: addresses of the mail servers that send, or the include: your mail provider documents.',
};

/** The one SPF record's tree, judged; a note when there is no one record to judge. */
export function spfLookupsRow(dns: DnsFacts, siteUrl: string): CheckResult {
  if (dns.spf.length !== 1)
    return note(
      S,
      dns.spf.length === 0
        ? `${dns.domain} has no SPF record, so there are no lookups to count`
        : `${dns.domain} has ${dns.spf.length} SPF records (the spf check reports it): no one record to follow`,
    );
  const record = dns.spf[0] as string;
  const walk = dns.spfWalk ?? ownTermsOnly(dns.domain, record);
  const followed = dns.spfWalk ? '' : ' (in the record itself; its includes were not followed)';
  const count = walk.lookups.length;
  const countText = walk.stoppedAtBound ? `at least ${count}` : String(count);
  const found: Array<{ kind: Kind; lines: string[] }> = [];
  if (count > SPF_LOOKUP_LIMIT) {
    const eleventh = walk.lookups[SPF_LOOKUP_LIMIT] as SpfLookup;
    found.push({
      kind: 'over',
      lines: [
        `${countText} DNS lookups${followed}, where receivers allow ${SPF_LOOKUP_LIMIT}: ${branchText(walk)}`,
        `lookup ${SPF_LOOKUP_LIMIT + 1} is ${where(eleventh)}`,
      ],
    });
  }
  const problem = (p: SpfProblem) => `${where(p)}: ${p.target ? `${p.target} ` : ''}${p.problem}`;
  if (walk.missing.length > 0) found.push({ kind: 'missing', lines: walk.missing.map(problem) });
  if (walk.loops.length > 0) found.push({ kind: 'loop', lines: walk.loops.map(problem) });
  if (walk.voids.length > SPF_VOID_LIMIT)
    found.push({
      kind: 'void',
      lines: [
        `${walk.voids.length} lookups answer nothing (NXDOMAIN or no records), where receivers allow ${SPF_VOID_LIMIT}: ${walk.voids.map(where).join('; ')}`,
      ],
    });
  if (walk.mxOverLimit.length > 0) found.push({ kind: 'mx', lines: walk.mxOverLimit.map(problem) });

  if (found.length === 0) {
    if (walk.incomplete)
      return unverified(
        S,
        `${count} DNS lookups counted before the walk stopped (${walk.incomplete}): the rest could not be read`,
      );
    const macros = walk.macros.length > 0 ? `; ${walk.macros.length} term(s) with a macro not followed` : '';
    const voids = walk.voids.length > 0 ? `; ${walk.voids.length} answer nothing` : '';
    return pass(
      S,
      `${count} of ${SPF_LOOKUP_LIMIT} DNS lookups${followed}${count > 0 ? `: ${branchText(walk)}` : ''}${voids}${macros}`,
    );
  }

  const first = found[0] as { kind: Kind; lines: string[] };
  const lines = found.flatMap((f) => f.lines);
  // The bad terms of the domain's own record can go as they are: a record without them.
  const ownBad = [...walk.missing, ...walk.loops].filter((p) => p.chain.length === 1).map((p) => p.term);
  const fixedRecord = ownBad.length > 0 ? withoutTerms(record, ownBad) : undefined;
  return fail(S, {
    // A void-lookup excess is a SHOULD in RFC 7208 4.6.4; every other finding here is a MUST.
    ...(found.every((f) => f.kind === 'void') ? { severity: 'medium' as const } : {}),
    detail: `SPF of ${dns.domain}: ${lines.join('; ')}. Receivers answer permerror and the mail fails SPF.`,
    title:
      first.kind === 'over' ? `SPF: ${countText} DNS lookups, receivers allow ${SPF_LOOKUP_LIMIT}` : TITLES[first.kind],
    remediation: found.map((f) => REMEDIES[f.kind]).join(' '),
    agentAction: agentAction(dns.domain, walk, found, countText),
    affectedUrls: [siteUrl],
    ...(fixedRecord
      ? { suggestions: [dnsSuggestion(dns.domain, [{ name: dns.domain, type: 'TXT', value: fixedRecord }])] }
      : {}),
    evidence: [
      ...lines.map((summary) => ({ type: 'check' as const, summary })),
      ...walk.records.map((r) => ({ type: 'check' as const, summary: `${r.domain}: ${quote(r.record)}` })),
    ],
  });
}

function agentAction(
  domain: string,
  walk: SpfWalk,
  found: Array<{ kind: Kind; lines: string[] }>,
  countText: string,
): string {
  const steps: string[] = [];
  for (const { kind } of found) {
    if (kind === 'over') {
      const heavy = spfBranches(walk)
        .filter((b) => b.lookups > 1)
        .sort((a, b) => b.lookups - a.lookups)
        .slice(0, 3)
        .map((b) => `${b.term} (${b.lookups})`);
      steps.push(
        `Bring the SPF record of ${domain} from ${countText} to at most ${SPF_LOOKUP_LIMIT} DNS lookups: drop includes of services that no longer send its mail${heavy.length > 0 ? `, or replace the heaviest (${heavy.join(', ')}) with the ip4:/ip6: ranges they list` : ''}.`,
      );
    }
    const remove = (problems: SpfProblem[]) =>
      problems.map((p) => `"${p.term}" from the SPF record of ${p.chain.at(-1)}`).join(', ');
    if (kind === 'missing') steps.push(`Remove (or correct) ${remove(walk.missing)}.`);
    if (kind === 'loop') steps.push(`Remove ${remove(walk.loops)}.`);
    if (kind === 'void')
      steps.push(
        `Remove the terms that name domains with no records: ${walk.voids.map((v) => `"${v.term}" (record of ${v.chain.at(-1)})`).join(', ')}.`,
      );
    if (kind === 'mx') steps.push(`Replace ${remove(walk.mxOverLimit)} with ip4:/ip6: ranges.`);
  }
  return steps.join(' ');
}

/** The record with each of `terms` taken out (as written, first occurrence each). */
function withoutTerms(record: string, terms: string[]): string {
  const parts = record.trim().split(/\s+/);
  for (const term of terms) {
    const at = parts.indexOf(term);
    if (at > 0) parts.splice(at, 1);
  }
  return parts.join(' ');
}

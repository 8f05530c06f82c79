// `serve`'s choice of whether projects may target this machine (issue 22). Local targets let a key
// reach this host and its private network (localhost:5432, a metadata address, webhooks into it):
// right for one person's service on their own machine, SSRF on a shared one. So they are on by
// default only for the single-user local service, and the service turns them off by itself when a
// second person joins (LocalTargets.whileSingleUser). The operator's flag wins either way.
import { LocalTargets } from '../service/local-targets.ts';
import type { Store } from '../service/store/index.ts';

export const isLoopback = (host: string) => ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host);

export interface LocalTargetFacts {
  /** --allow-local-targets (true), --no-allow-local-targets (false), or neither. */
  flag: boolean | undefined;
  embedded: boolean;
  host: string;
  /** Where a public address came from ('--public-url' or 'SITEAUDIT_PUBLIC_URL'), if one is set. */
  publicUrlFrom: string | undefined;
  trustProxy: boolean;
  /** Where MCP server addresses came from ('--mcp-url' or 'SITEAUDIT_MCP_URL'), if any are set. */
  mcpUrlFrom: string | undefined;
}

const ALLOW_HINT = '--allow-local-targets to allow them';

/** Why this is not a single-user local service, from its settings alone; undefined when it may be one. */
export function sharedBecause(facts: Omit<LocalTargetFacts, 'flag'>): string | undefined {
  if (!facts.embedded) return 'the store is a database server (a shared service)';
  if (!isLoopback(facts.host)) return `--host ${facts.host} is not a loopback address`;
  if (facts.publicUrlFrom) return `${facts.publicUrlFrom} is set (a shared service)`;
  if (facts.trustProxy) return '--trust-proxy is set (a service behind a proxy)';
  if (facts.mcpUrlFrom) return `${facts.mcpUrlFrom} is set (a shared service)`;
  return undefined;
}

const members = (n: number) => `${n} ${n === 1 ? 'member' : 'members'} besides the local owner`;

/** The policy for this start, and the line that says which it is and why. */
export async function chooseLocalTargets(
  facts: LocalTargetFacts,
  store: Store,
  log: (line: string) => void,
): Promise<LocalTargets> {
  if (facts.flag !== undefined) {
    log(`local targets ${facts.flag ? 'allowed: --allow-local-targets' : 'refused: --no-allow-local-targets'}`);
    return LocalTargets.fixed(facts.flag);
  }
  const shared = sharedBecause(facts);
  if (shared) {
    log(`local targets refused: ${shared}; ${ALLOW_HINT}`);
    return LocalTargets.fixed(false);
  }
  const { localTargets, members: now } = await LocalTargets.whileSingleUser(store, (n) =>
    log(`local targets refused from now on: ${members(n)} (a shared service); restart with ${ALLOW_HINT}`),
  );
  log(
    localTargets.allowed
      ? 'local targets allowed: single-user embedded service on loopback (refused once a second member joins)'
      : `local targets refused: ${members(now)} (a shared service); ${ALLOW_HINT}`,
  );
  return localTargets;
}

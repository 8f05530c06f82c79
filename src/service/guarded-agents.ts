// Guarded undici agents for an answer to "private addresses allowed?" that may change while the
// service runs (the local-targets policy): one agent per answer, so a connection kept alive to a
// private address while they were allowed is never reused once they are not.
import type { Agent } from 'undici';
import { type GuardedAgentOptions, guardedAgent } from '../audit/net/lookup.ts';
import { type Allowance, isAllowed } from './local-targets.ts';

export function guardedAgents(options: Omit<GuardedAgentOptions, 'allowPrivate'> & { allowPrivate: Allowance }) {
  const agents = new Map<boolean, Agent>();
  return {
    /** Whether private addresses are allowed now. */
    allowPrivate: () => isAllowed(options.allowPrivate),
    /** The agent for that answer (asked once per request, so its checks and its agent agree). */
    agent(allowPrivate: boolean): Agent {
      let agent = agents.get(allowPrivate);
      if (!agent) {
        agent = guardedAgent({ ...options, allowPrivate });
        agents.set(allowPrivate, agent);
      }
      return agent;
    },
    async close(): Promise<void> {
      await Promise.all([...agents.values()].map((agent) => agent.close()));
    },
  };
}

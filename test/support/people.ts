// A service for the people tests: only the API and the dashboard (no worker, deliverer or monitor),
// one workspace, Acme, and its owner Ann, who signs in with PASSWORD.
import { addMember, createUser } from '../../src/service/accounts.ts';
import type { StartOptions } from '../../src/service/server.ts';
import { testBackends } from './backends.ts';
import { startTestService, type TestService } from './service.ts';

export const PASSWORD = 'correct horse battery staple';
export const ANN = 'ann@example.com';

export async function startPeopleService(
  options: Partial<Omit<StartOptions, 'store' | 'kek'>> = {},
): Promise<{ service: TestService; organizationId: string; userId: string }> {
  const service = await startTestService(testBackends()[0] as ReturnType<typeof testBackends>[number], {
    worker: false,
    deliverer: false,
    monitor: false,
    ...options,
  });
  const organizationId = (await service.createOrg({ name: 'Acme' })).id;
  const ann = await createUser(service.store, { email: ANN, name: 'Ann', password: PASSWORD });
  await addMember(service.store, ann.id, organizationId, 'owner');
  return { service, organizationId, userId: ann.id };
}

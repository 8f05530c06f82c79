// spec 5.3: key scopes. Keys are issued with all of them unless narrowed.
import { z } from 'zod';

export const SCOPES = [
  'projects:read',
  'projects:write',
  'projects:delete',
  'runs:read',
  'runs:write',
  'findings:read',
  'reports:read',
  'webhooks:manage',
] as const;
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

// spec 2.3 and 4.3 to 4.7: projects, their bodies and responses.
import { z } from 'zod';
import { DateTime, Pagination, PlainText, Uuid } from './common.ts';

export const PROJECT_STATUSES = ['active', 'paused', 'archived'] as const;
export const ProjectStatus = z.enum(PROJECT_STATUSES);
export type ProjectStatus = z.infer<typeof ProjectStatus>;

export const DOMAIN_MIN = 3;
export const DOMAIN_MAX = 253;
export const PROJECT_NAME_MAX = 100;

export const Project = z.object({
  projectId: Uuid,
  name: z.string(),
  domain: z.string(),
  slug: z.string(),
  status: ProjectStatus,
  createdAt: DateTime,
  updatedAt: DateTime,
  // spec 2.3: create and restore responses may add these.
  idempotent: z.boolean().optional(),
  restored: z.boolean().optional(),
});
export type Project = z.infer<typeof Project>;

export const CreateProjectBody = z.object({
  domain: z.string().min(DOMAIN_MIN).max(DOMAIN_MAX),
  name: PlainText.trim().min(1).max(PROJECT_NAME_MAX).optional(),
});
export type CreateProjectBody = z.infer<typeof CreateProjectBody>;

// spec 4.6: exactly {status: "active"}, nothing else.
export const RestoreProjectBody = z.strictObject({ status: z.literal('active') });

export const RestoredProject = Project.extend({ restored: z.boolean(), idempotent: z.boolean() });

// spec 4.7: the body form of the archive confirmation (it may also come as a query parameter).
export const ArchiveProjectBody = z.object({ confirm: z.string() });

export const ArchiveResult = z.object({
  ok: z.boolean(),
  projectId: Uuid,
  archived: z.boolean(),
  deleted: z.boolean(),
});
export type ArchiveResult = z.infer<typeof ArchiveResult>;

export const ProjectStatusFilter = z.enum([...PROJECT_STATUSES, 'all']);
export type ProjectStatusFilter = z.infer<typeof ProjectStatusFilter>;

export const ProjectList = z.object({ projects: z.array(Project), pagination: Pagination });
export type ProjectList = z.infer<typeof ProjectList>;

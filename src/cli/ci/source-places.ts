// `--source-dir`: where the elements of a call's findings are written in the site's source (the
// locator of issue 26), looked up once for the whole call and handed to the formats as a function.
import { locateElements, locationsOf, sourceDirectory } from '../../mcp/source/element-locations.ts';
import { CliError } from '../options.ts';
import type { AuditResult, ProductAudit, SourcePlace } from './audit-result.ts';

type Locate = NonNullable<AuditResult['locate']>;

/** Checks the directory now (before any audit starts); locates the audits' elements later. */
export async function sourceLocator(dir: string): Promise<(audits: readonly ProductAudit[]) => Promise<Locate>> {
  const root = await sourceDirectory(dir);
  if (!root) throw new CliError('invalid_argument', `--source-dir ${dir} is not a directory`);
  return async (audits) => {
    const elements = audits.flatMap((audit) =>
      audit.findings.flatMap((finding) => finding.evidence.flatMap((item) => item.elements ?? [])),
    );
    const found = await locateElements(root, elements);
    return (element) =>
      locationsOf(found, element).map(({ file, line, confidence }): SourcePlace => ({ file, line, confidence }));
  };
}

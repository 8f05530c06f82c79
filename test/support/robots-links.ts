// Loaded in a time-bounded worker by robots.test.ts: one parsed robots.txt asked about many links,
// as a crawl asks it (the matching budget belongs to the parsed file, so it must stay in one thread).
import { isAllowed, matchBudgetSpent, parseRobotsTxt } from '../../src/audit/robots.ts';

export function askLinks(text: string, paths: string[]): { allowed: number; refused: number; spent: boolean } {
  const robots = parseRobotsTxt(text);
  let allowed = 0;
  for (const path of paths) if (isAllowed(robots, 'siteaudit', `https://site.test${path}`)) allowed++;
  return { allowed, refused: paths.length - allowed, spent: matchBudgetSpent(robots) };
}

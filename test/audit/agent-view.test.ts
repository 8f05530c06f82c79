// The agent's view of a rendered page (summarizeAriaTree): counts in document order, and a tree
// nested deeper than any call stack is summarized, not thrown on (issue 22).
import { describe, expect, it } from 'vitest';
import { summarizeAriaTree } from '../../src/audit/render/agent-view.ts';

describe('summarizeAriaTree', () => {
  it('counts landmarks, headings and controls, and names unnamed controls in document order', () => {
    const view = summarizeAriaTree([
      { role: 'banner', children: [{ role: 'link', name: 'Home', url: '/' }, { role: 'button' }] },
      {
        role: 'main',
        children: [
          { role: 'heading', name: 'Shop' },
          {
            role: 'form',
            name: 'Search',
            children: [{ role: 'searchbox' }, { role: 'button', name: 'Go' }, 'text'],
          },
          { role: 'link', url: '/cart' },
        ],
      },
    ]);
    expect(view).toEqual({
      landmarks: { banner: 1, main: 1, form: 1 },
      headings: 1,
      controls: { named: 2, unnamed: 3 },
      unnamed: ['button', 'searchbox', 'link /cart'],
      unnamedRoles: ['button', 'searchbox', 'link'],
      forms: [{ name: 'Search', controls: 2, unnamed: 1, submit: true }],
    });
  });

  it('summarizes a tree nested 200,000 deep', () => {
    let node: { role: string; children?: unknown[] } = { role: 'button' };
    for (let i = 0; i < 200_000; i++) node = { role: 'generic', children: [node] };
    const view = summarizeAriaTree(node);
    expect(view.controls).toEqual({ named: 0, unnamed: 1 });
  });
});

// The audit's own scripts (axe, the visibility marking) run in an isolated world of the page, as
// browser extensions' content scripts do: they share the page's DOM but not its JavaScript globals.
// In the page's own world a hostile page could answer for them: redefine `getComputedStyle` so
// hidden elements look shown, make `setAttribute` a no-op, or keep `window.axe` pointing at a fake
// that finds no violations (issue 25). The world is made through the Chrome DevTools Protocol.
import type { CDPSession, Page } from 'playwright-core';

export interface IsolatedWorld {
  /** Evaluates a script's source (a library that defines its globals in this world). */
  load(source: string): Promise<void>;
  /** Calls a self-contained function with a JSON argument; its JSON result comes back. */
  call<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  close(): Promise<void>;
}

/** The world's name: the vitals observers (vitals.ts) start in the same world with each document. */
export const WORLD_NAME = 'siteaudit';

/** An isolated world in the page's main frame, as the page is now (a navigation ends it). */
export async function isolatedWorld(page: Page): Promise<IsolatedWorld> {
  const session = await page.context().newCDPSession(page);
  try {
    const { frameTree } = await session.send('Page.getFrameTree');
    const { executionContextId } = await session.send('Page.createIsolatedWorld', {
      frameId: frameTree.frame.id,
      worldName: WORLD_NAME,
    });
    const evaluate = async (expression: string): Promise<unknown> => {
      const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
        expression,
        contextId: executionContextId,
        returnByValue: true,
        awaitPromise: true,
      });
      if (exceptionDetails) {
        const text = exceptionDetails.exception?.description ?? exceptionDetails.text;
        throw new Error(text.split('\n', 1)[0]);
      }
      return result.value;
    };
    return {
      async load(source) {
        await evaluate(`${source}\n;undefined`);
      },
      async call(fn, arg) {
        return (await evaluate(`(${fn.toString()})(${JSON.stringify(arg)})`)) as Awaited<ReturnType<typeof fn>>;
      },
      close: () => detach(session),
    };
  } catch (error) {
    await detach(session);
    throw error;
  }
}

const detach = (session: CDPSession) => session.detach().catch(() => undefined);

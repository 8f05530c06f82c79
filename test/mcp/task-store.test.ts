// The store behind MCP tasks: a task lives an hour (or the shorter ttl asked for), belongs to its
// owner alone, moves from working to one ended state once, and the store holds a bounded number.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_TASK_LIMITS, TaskLimitError, TaskStore } from '../../src/mcp/tasks/task-store.ts';

const stores: TaskStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

function storeAt(start = 1_000_000, limits: Partial<typeof DEFAULT_TASK_LIMITS> = {}) {
  const clock = { now: start };
  const store = new TaskStore(limits, () => clock.now);
  stores.push(store);
  return { store, clock };
}

const task = { toolName: 'start_run', pollIntervalMs: 2000 };
const result = { content: [{ type: 'text' as const, text: 'done' }] };

describe('TaskStore', () => {
  it('keeps a task an hour from creation, then forgets it and stops its work', () => {
    const { store, clock } = storeAt();
    const record = store.create('a', task);
    expect(record).toMatchObject({ status: 'working', ttlMs: 60 * 60_000, pollIntervalMs: 2000 });
    clock.now += 60 * 60_000 - 1;
    expect(store.get('a', record.taskId)).toBe(record);
    clock.now += 1;
    expect(store.get('a', record.taskId)).toBeUndefined();
    expect(record.abort.signal.aborted).toBe(true);
    expect(store.size).toBe(0);
  });

  it('lets a requested ttl shorten the hour, never lengthen it', () => {
    const { store, clock } = storeAt();
    expect(store.create('a', { ...task, ttlMs: 5_000 }).ttlMs).toBe(5_000);
    const long = store.create('a', { ...task, ttlMs: 10 * 60 * 60_000 });
    expect(long.ttlMs).toBe(60 * 60_000);
    // A ttl of nothing would end the task before its first poll: a second at least.
    expect(store.create('a', { ...task, ttlMs: 0 }).ttlMs).toBe(1_000);
    clock.now += 5_000;
    store.sweep();
    expect(store.list('a')).toEqual([long]);
  });

  it("answers another owner's task as unknown, and lists only the owner's", () => {
    const { store } = storeAt();
    const mine = store.create('bearer:a', task);
    store.create('bearer:b', task);
    expect(store.get('bearer:b', mine.taskId)).toBeUndefined();
    expect(store.get('stdio', mine.taskId)).toBeUndefined();
    expect(store.get('bearer:a', mine.taskId)).toBe(mine);
    expect(store.list('bearer:a').map((r) => r.taskId)).toEqual([mine.taskId]);
  });

  it('moves working to one ended state once, and keeps progress only while working', async () => {
    const { store, clock } = storeAt();
    const record = store.create('a', task);
    store.progress(record, 'Running — 40%: fetching pages');
    expect(record.statusMessage).toBe('Running — 40%: fetching pages');
    clock.now += 10;
    expect(store.complete(record, result)).toBe(true);
    // The last progress message gives way to one that says the task ended.
    expect(record).toMatchObject({
      status: 'completed',
      result,
      lastUpdatedAt: 1_000_010,
      statusMessage: 'Done: the result is ready',
    });
    await record.ended;
    // Ended is final: no cancel, no failure, no progress after it.
    expect(store.cancel(record, 'stop')).toBe(false);
    expect(store.fail(record, { code: -32603, message: 'late' })).toBe(false);
    store.progress(record, 'Running — 90%');
    expect(record).toMatchObject({ status: 'completed', statusMessage: 'Done: the result is ready' });
    expect(record.abort.signal.aborted).toBe(false);

    const cancelled = store.create('a', task);
    expect(store.cancel(cancelled, 'Stopped watching')).toBe(true);
    expect(cancelled).toMatchObject({ status: 'cancelled', statusMessage: 'Stopped watching' });
    expect(cancelled.abort.signal.aborted).toBe(true);
    expect(store.complete(cancelled, result)).toBe(false);

    const failed = store.create('a', task);
    expect(store.fail(failed, { code: -32603, message: 'lost track' })).toBe(true);
    expect(failed).toMatchObject({ status: 'failed', statusMessage: 'lost track', error: { code: -32603 } });
  });

  it('holds 20 working tasks per owner: the 21st is refused, ended ones give way', () => {
    const { store } = storeAt();
    const working = Array.from({ length: DEFAULT_TASK_LIMITS.perOwner }, () => store.create('a', task));
    expect(() => store.create('a', task)).toThrow(TaskLimitError);
    // Another owner is not held back by the first one's tasks.
    expect(store.create('b', task).status).toBe('working');
    const [first] = working;
    if (!first) throw new Error('no task');
    store.complete(first, result);
    const next = store.create('a', task);
    expect(next.status).toBe('working');
    // The ended task made room and is gone; the owner still holds 20.
    expect(store.get('a', first.taskId)).toBeUndefined();
    expect(store.list('a')).toHaveLength(20);
  });

  it('holds a bounded number in all, dropping the oldest ended task first', () => {
    const { store } = storeAt(1_000_000, { total: 3 });
    const a = store.create('a', task);
    store.create('b', task);
    store.create('c', task);
    expect(() => store.create('d', task)).toThrow(/3 tasks working/);
    store.complete(a, result);
    expect(store.create('d', task).owner).toBe('d');
    expect(store.get('a', a.taskId)).toBeUndefined();
    expect(store.size).toBe(3);
  });

  it('stops every working task when it closes', () => {
    const { store } = storeAt();
    const record = store.create('a', task);
    store.close();
    expect(record.abort.signal.aborted).toBe(true);
    expect(store.size).toBe(0);
  });
});

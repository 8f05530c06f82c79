// Completed runs, their reports and findings never change (spec 1): the client keeps them, bounded,
// least recently used out.
export class ImmutableCache {
  readonly #entries = new Map<string, unknown>();
  readonly #max: number;

  constructor(max = 500) {
    this.#max = max;
  }

  get<T>(key: string): T | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value as T;
  }

  set(key: string, value: unknown): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value as string);
  }

  get size(): number {
    return this.#entries.size;
  }
}

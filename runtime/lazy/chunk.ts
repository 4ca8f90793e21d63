/**
 * A module in a chunk of its own: loaded by the bundle's `import()` the first time it is needed, then at hand, so
 * that later uses take no extra step. What the `.bundle.ts` side of a loader that waits for a chunk shares.
 */
export interface Chunk<T> {
  /** `use(module)`: at once when the chunk has loaded, else once it has. */
  use<R>(use: (module: T) => R): R | Promise<R>;
  /** Whether the chunk has loaded. */
  loaded(): boolean;
}

export function chunk<T>(load: () => Promise<T>): Chunk<T> {
  let module: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    use: (use) =>
      module !== undefined ? use(module) : (loading ??= load().then((loaded) => (module = loaded))).then(use),
    loaded: () => module !== undefined,
  };
}

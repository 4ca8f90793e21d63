/**
 * A promise with its resolve and reject at hand, for a test that waits for an event (a tool started, a call was
 * answered) instead of sleeping and hoping the event came first: a sleep is either longer than needed or, on a
 * loaded machine, too short. (Node 22's `Promise.withResolvers`; the suite also runs on Node 20.)
 */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (reason: unknown) => void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** `turns` turns of the event loop (each after pending I/O and timers due): an order of events, no wall time. */
export async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

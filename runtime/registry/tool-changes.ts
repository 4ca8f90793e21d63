/**
 * Who wants to know when a registry's tools change (an MCP server's `subscriptions/listen` streams and its
 * `notifications/tools/list_changed`). Kept beside the registry rather than in it, so that a registry nobody
 * watches carries nothing for it.
 */

const watchers = new WeakMap<object, Set<() => void>>();

/** Calls `listener` after each `register` that added a tool to `registry`; returns what stops it. */
export function watchTools(registry: object, listener: () => void): () => void {
  let set = watchers.get(registry);
  if (!set) watchers.set(registry, (set = new Set()));
  set.add(listener);
  return () => void set.delete(listener);
}

/** Tells the watchers of `registry` that its tools changed. A watcher that throws does not stop the others. */
export function toolsChanged(registry: object): void {
  const set = watchers.get(registry);
  if (!set) return;
  for (const listener of [...set]) {
    try {
      listener();
    } catch {
      // A watcher's failure is its own (a stream that closed meanwhile); registration goes on.
    }
  }
}

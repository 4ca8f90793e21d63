/**
 * Where the runtime gets ajv, which it needs only for schemas without a validator compiled at build time and for
 * union sub-schemas on an error path.
 *
 * - Under Node (the CommonJS build) ajv is loaded synchronously the first time it is asked for.
 * - In a bundle (the ES module build) it is loaded with `import()`: the registry starts the load when a tool without
 *   a compiled validator is registered and awaits it before its first dispatch, so bundlers can split ajv into a
 *   chunk of its own that apps with compiled validators never load. Until it is loaded, a synchronous caller gets a
 *   clear error (whole schemas) or a shorter union message (error paths).
 */
import type Ajv2020 from "ajv/dist/2020";
import { AJV_SYNC, ajvNow } from "#ajv-now";

type CreateAjv = (allErrors: boolean) => Ajv2020;

let create: CreateAjv | undefined;
let loading: Promise<void> | undefined;

/** Start loading ajv (once) where it cannot be had synchronously; resolves when it is ready. */
export function loadAjv(): Promise<void> {
  if (create || AJV_SYNC) return Promise.resolve();
  loading ??= import("./ajv-engine.js").then((engine) => {
    create = engine.createAjv;
  });
  return loading;
}

/** The load still under way, if any: what a registry awaits before its first dispatch. */
export function ajvLoading(): Promise<void> | undefined {
  return create || !loading ? undefined : loading;
}

/** A new ajv instance, or `undefined` while ajv cannot be had synchronously (in a bundle, before it loaded). */
export function newAjv(allErrors: boolean): Ajv2020 | undefined {
  create ??= ajvNow();
  if (!create) {
    void loadAjv();
    return undefined;
  }
  return create(allErrors);
}

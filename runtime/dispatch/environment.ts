/**
 * What dispatch needs of the registry and of each registered tool: the one seam between runtime/registry/ and the
 * dispatch pipeline (types only, shared by the static fast lane and the lazily loaded full pipeline).
 */
import type { ArgumentsValidator } from "../arguments/validate";
import type { RegisteredTool, RegistryOptions, ToolMiddleware } from "./options";

/** What the pipeline needs of a registered tool. */
export interface DispatchTool extends RegisteredTool {
  /** The compiled parameter schema (compiled on first use, then kept). */
  validator(): ArgumentsValidator;
  /** Call the function with its `this`. */
  call(args: unknown[]): unknown;
  /** The function called with its own arguments, its `this` bound (the fast lane's way to call without an array). */
  readonly invoker: (...args: unknown[]) => unknown;
  /** What the fast lane (plain.ts) worked out once for this tool; kept here, not looked up per call. */
  fastLane: object | undefined;
}

/** What the pipeline needs of the registry. */
export interface DispatchEnvironment {
  get(name: string): DispatchTool | undefined;
  names(): string[];
  readonly options: Readonly<RegistryOptions>;
  /** `registry.use` middleware, outermost first. */
  readonly middleware?: readonly ToolMiddleware[];
  /**
   * Whether some registered tool has `needsApproval`: only then is a batch checked for calls that need approval
   * before it runs (the registry sets it as it registers such a tool; absent means "look").
   */
  approvals?: boolean;
  /** What dispatch worked out once from `options` for the fast lane (dispatch.ts); absent until the first batch. */
  lane?: object;
}

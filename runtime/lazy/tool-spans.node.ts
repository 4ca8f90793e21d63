/** `#lazy/tool-spans` under Node: the span wrapper, required on the first traced dispatch. */
type ToolSpans = typeof import("../dispatch/tool-spans");

export function loadToolSpans(): ToolSpans["withToolSpans"] {
  return (require("../dispatch/tool-spans") as ToolSpans).withToolSpans;
}

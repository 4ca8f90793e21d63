/**
 * maxResultBytes counts everything a result sends to the model: its text (UTF-8) plus the base64 data (or URL) of
 * each image and file part; the artifact of a content_and_artifact tool stays in process and is not counted. An
 * oversized result is answered with an error that says what was too large and what to do, in each provider's format.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { chatAttachments, file, image, text, tool, ToolRegistry, type ToolMessage } from "../../runtime/entries/index";

const MIB = 1_048_576;
/** `n` characters of valid-looking base64. */
const base64 = (n: number) => "A".repeat(n);

function makeTools() {
  /**
   * A chart of `size` base64 characters, with a caption.
   * @param size Base64 length of the image
   */
  const chart = tool(function chart(size: number) {
    return [text("Sales in May"), image({ base64: base64(size), mediaType: "image/png" })];
  });
  /**
   * A caption of `chars` two-byte characters and a file of `size` base64 characters.
   * @param chars Characters of text
   * @param size Base64 length of the file
   */
  const report = tool(
    function report(chars: number, size: number) {
      return [
        text("é".repeat(chars)),
        file({ base64: base64(size), mediaType: "application/pdf", filename: "report.pdf" }),
      ];
    },
    { maxResultBytes: 1000 },
  );
  /**
   * A thumbnail for the model, the full scan kept in process.
   * @param size Bytes of the kept scan
   */
  const scan = tool(
    function scan(size: number): [ReturnType<typeof image>, { scan: Uint8Array; note: string }] {
      return [
        image({ base64: base64(100), mediaType: "image/png" }),
        { scan: new Uint8Array(size), note: "x".repeat(size) },
      ];
    },
    { responseFormat: "content_and_artifact" },
  );
  /**
   * A screenshot of `size` base64 characters, for a tool whose owner raised the limit.
   * @param size Base64 length of the image
   */
  const screenshot = tool(
    async function screenshot(size: number) {
      return image({ base64: base64(size), mediaType: "image/png" });
    },
    { maxResultBytes: 8 * MIB },
  );
  /**
   * An image by a data: URL of `size` base64 characters.
   * @param size Base64 length of the URL's payload
   */
  const inline = tool(function inline(size: number) {
    return image({ url: `data:image/png;base64,${base64(size)}`, mediaType: "image/png" });
  });
  return [chart, report, scan, screenshot, inline];
}

const registry = (options?: { maxResultBytes?: number }) => new ToolRegistry(makeTools(), options);
const call = (name: string, args: Record<string, unknown>, id = "call_1") => ({ tool_calls: [{ id, name, args }] });
const one = async (
  name: string,
  args: Record<string, unknown>,
  options?: { maxResultBytes?: number },
): Promise<ToolMessage> => (await registry(options).runCalls(call(name, args)))[0]!;

const CHART_TEXT = "Sales in May\n[image 1: image/png]";
const oversizedChart = (size: number, limit = MIB) =>
  `Error: the result of chart is too large to send (${CHART_TEXT.length + size} bytes: ${CHART_TEXT.length} of text and ${size} of base64 data in 1 image/file part, the largest [image 1: image/png] with ${size}; the limit is ${limit} bytes, maxResultBytes). Ask for less: fewer or smaller images or files (e.g. a lower resolution, a crop, one page at a time); a tool that needs more can raise maxResultBytes.`;

test("an image part over the limit is refused: the answer says text vs. media bytes, the limit, maxResultBytes and what to do", async () => {
  const size = 50 * MIB;
  const refused = await one("chart", { size });
  assert.is(refused.status, "error");
  assert.is(refused.errorKind, "result");
  assert.is(refused.parts, undefined);
  assert.is(refused.content, oversizedChart(size));
  // Just under the limit is sent; one byte over is not (the base64 length is what counts, not the decoded bytes).
  const fits = MIB - CHART_TEXT.length;
  const under = await one("chart", { size: fits });
  assert.is(under.status, "success");
  assert.equal(
    under.parts!.map((p) => p.type),
    ["text", "image"],
  );
  assert.is((await one("chart", { size: fits + 1 })).content, oversizedChart(fits + 1));
  // A data: URL carries the bytes too.
  const url = await one("inline", { size: 2 * MIB });
  assert.is(url.status, "error");
  assert.match(
    url.content,
    /too large to send \(\d+ bytes: 20 of text and 2097174 of base64 data in 1 image\/file part/,
  );
});

test("the artifact of a content_and_artifact result stays in process and is not counted", async () => {
  const kept = await one("scan", { size: 5 * MIB });
  assert.is(kept.status, "success");
  assert.is(kept.content, "[image 1: image/png]");
  const artifact = kept.artifact as { scan: Uint8Array; note: string };
  assert.is(artifact.scan.length, 5 * MIB);
  assert.is(artifact.note.length, 5 * MIB);
  assert.equal(kept.toJSON(), { role: "tool", tool_call_id: "call_1", content: "[image 1: image/png]" });
  // The content part is still counted under a lowered limit.
  const lowered = await one("scan", { size: 5 * MIB }, { maxResultBytes: 100 });
  assert.is(lowered.status, "error");
  assert.match(
    lowered.content,
    /\(120 bytes: 20 of text and 100 of base64 data in 1 image\/file part, .*the limit is 100 bytes, maxResultBytes\)/,
  );
});

test("text and media are summed, the text in UTF-8 bytes", async () => {
  // report's limit is 1000: 300 "é" are 600 bytes (plus the label line), its PDF 300 or 400 base64 characters.
  const label = "\n[file 1: report.pdf]";
  const textBytes = 600 + label.length;
  const fits = await one("report", { chars: 300, size: 1000 - textBytes });
  assert.is(fits.status, "success");
  const over = await one("report", { chars: 300, size: 1001 - textBytes });
  assert.is(over.status, "error");
  assert.is(
    over.content,
    `Error: the result of report is too large to send (1001 bytes: ${textBytes} of text and ${1001 - textBytes} of base64 data in 1 image/file part, the largest [file 1: report.pdf] with ${1001 - textBytes}; the limit is 1000 bytes, maxResultBytes). Ask for less: fewer or smaller images or files (e.g. a lower resolution, a crop, one page at a time); a tool that needs more can raise maxResultBytes.`,
  );
  // Neither alone is over: the text alone (no file) and the file alone fit.
  assert.is((await one("report", { chars: 300, size: 0 })).status, "success");
  assert.is((await one("report", { chars: 0, size: 900 })).status, "success");
});

test("maxResultBytes raised for one tool (or the registry) lets a large image through", async () => {
  const size = 6 * MIB;
  const raised = await one("screenshot", { size });
  assert.is(raised.status, "success");
  assert.is((raised.parts![0] as { data: string }).data.length, size);
  // The same image from a tool at the default is refused, and sent when the registry raises the limit.
  assert.is((await one("chart", { size })).status, "error");
  assert.is((await one("chart", { size }, { maxResultBytes: 7 * MIB })).status, "success");
  // The raised limit still holds.
  const over = await one("screenshot", { size: 9 * MIB });
  assert.is(over.status, "error");
  assert.match(over.content, /the limit is 8388608 bytes, maxResultBytes/);
});

test("each provider answers an oversized media result with an error in its own format, and sends no media", async () => {
  const size = 2 * MIB;
  const expected = oversizedChart(size);

  const anthropic = await registry().dispatch({
    role: "assistant",
    content: [{ type: "tool_use", id: "toolu_1", name: "chart", input: { size } }],
  });
  assert.equal(anthropic, {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: "toolu_1", content: expected, is_error: true }],
  });

  const gemini = await registry().dispatch({
    candidates: [
      { content: { role: "model", parts: [{ functionCall: { id: "fc_1", name: "chart", args: { size } } }] } },
    ],
  });
  assert.equal(gemini, {
    role: "user",
    parts: [{ functionResponse: { name: "chart", id: "fc_1", response: { error: expected } } }],
  });

  const responses = await registry().dispatch({
    output: [{ type: "function_call", call_id: "call_r", name: "chart", arguments: JSON.stringify({ size }) }],
  });
  assert.equal(responses, [{ type: "function_call_output", call_id: "call_r", output: expected }]);

  const chat = await registry().dispatch({
    role: "assistant",
    content: null,
    tool_calls: [{ id: "call_c", type: "function", function: { name: "chart", arguments: JSON.stringify({ size }) } }],
  });
  assert.equal(
    chat.map((m) => m.toJSON()),
    [{ role: "tool", tool_call_id: "call_c", content: expected }],
  );
  assert.is(chat[0]!.status, "error");
  assert.is(chatAttachments(chat), undefined);
});

test.run();

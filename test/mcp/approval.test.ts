/**
 * Human approval over MCP: a `needsApproval` tool called through the server. On the 2026-07-28 revision the SDK v2
 * client's user answers the `input_required` elicitation and the client retries with the sealed `requestState`
 * (the server keeps nothing); an SDK 1.x client on a live connection is asked with `elicitation/create`; a client
 * that can ask nobody gets a tool error. Raw retries prove the state is safe from a client that edits it, replays
 * it, brings it to another call or is another caller, and that a shared `approvalSecret` lets another instance
 * resume it.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type MCPHttpOptions, serveMCP } from "tooltype/mcp";
import { connect, rawPost, TIMEOUT, withNodeHandler } from "./support";
import { approvalQuestion } from "../../runtime/mcp/approval";
import { createApprovalRegistry, transfers } from "./tools";

const SECRET = "an approval secret of thirty-two bytes or more, for the tests";

/** The SDK v2 client on the current revision; with `answer`, it declares form elicitation and answers with it. */
async function modernClient(
  url: URL,
  answer?: (message: string) => { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> },
): Promise<Client> {
  const client = new Client(
    { name: "approver", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: answer ? { elicitation: { form: {} } } : {} },
  );
  if (answer)
    client.setRequestHandler(
      "elicitation/create",
      async (request) => answer((request.params as { message: string }).message) as never,
    );
  await client.connect(new StreamableHTTPClientTransport(url), TIMEOUT);
  return client;
}

function text(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

const META = (capabilities: object = { elicitation: {} }) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": capabilities,
});
const HEADERS = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "transfer" };

function call(args: object, extra: object = {}, id = 1) {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "transfer", arguments: args, _meta: META(), ...extra },
  };
}

async function post(url: URL, body: unknown, headers: Record<string, string> = {}) {
  const answer = await rawPost(url, body, { ...HEADERS, ...headers });
  // biome-ignore lint/suspicious/noExplicitAny: a JSON-RPC result read loosely, as a client would
  return JSON.parse(answer.body) as { result?: Record<string, any>; error?: { code: number; message: string } };
}

test("SDK v2 client: the user approves through the input_required elicitation, the retry runs the tool once", async () => {
  await withNodeHandler(createApprovalRegistry(), undefined, async (url) => {
    const asked: string[] = [];
    const client = await modernClient(url, (message) => {
      asked.push(message);
      return { action: "accept", content: { approve: true } };
    });
    try {
      const before = transfers.length;
      const result = await client.callTool({ name: "transfer", arguments: { to: "bob", amount: 5 } }, TIMEOUT);
      assert.is(text(result), "sent 5 to bob");
      assert.is(result.isError, undefined);
      assert.equal(transfers.slice(before), ["5 to bob"]);
      assert.is(asked.length, 1);
      assert.match(asked[0]!, /"transfer" with these arguments:\n- to: "bob"\n- amount: 5\nAllow it\?$/);
      // A tool that needs no approval asks nothing.
      await client.callTool({ name: "add", arguments: { values: [1] } }, TIMEOUT);
      assert.is(asked.length, 1);
    } finally {
      await client.close();
    }
  });
});

test("SDK v2 client: a refusal or a declined question answers with the rejection, and nothing runs", async () => {
  await withNodeHandler(createApprovalRegistry(), undefined, async (url) => {
    for (const answer of [{ action: "accept", content: { approve: false } }, { action: "decline" }] as const) {
      const client = await modernClient(url, () => answer);
      try {
        const before = transfers.length;
        const result = await client.callTool({ name: "transfer", arguments: { to: "eve", amount: 9 } }, TIMEOUT);
        assert.is(result.isError, true);
        assert.match(text(result), /^The user rejected this call of transfer, so it was not run\./);
        assert.is(transfers.length, before);
      } finally {
        await client.close();
      }
    }
  });
});

test("SDK v2 client: the user approves with edited arguments, which are checked again; an edit that does not fit runs nothing", async () => {
  await withNodeHandler(createApprovalRegistry(), undefined, async (url) => {
    for (const [edited, expect] of [
      [
        '{"amount":3,"to":"bob"}',
        {
          ran: "3 to bob",
          text: /^\[The user edited the arguments of this call before approving it; it ran with \{"amount":3,"to":"bob"\}\.\]\s*sent 3 to bob$/,
        },
      ],
      ['{"amount":"lots","to":"bob"}', { ran: undefined, text: /amount/ }],
      ["{amount: 3}", { ran: undefined, text: /edited arguments that are not JSON/ }],
      ['["bob", 3]', { ran: undefined, text: /edited arguments that are not a JSON object/ }],
    ] as const) {
      const offered: Record<string, unknown>[] = [];
      const client = new Client(
        { name: "editor", version: "1.0.0" },
        { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: { form: {} } } },
      );
      client.setRequestHandler("elicitation/create", async (request) => {
        offered.push(
          (request.params as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema.properties,
        );
        return { action: "accept", content: { approve: true, arguments: edited } } as never;
      });
      await client.connect(new StreamableHTTPClientTransport(url), TIMEOUT);
      try {
        const before = transfers.length;
        const result = await client.callTool({ name: "transfer", arguments: { to: "bob", amount: 5 } }, TIMEOUT);
        // The form offers the arguments as shown, to edit.
        assert.equal((offered[0]!.arguments as { default: string }).default, '{"amount":5,"to":"bob"}');
        assert.match(text(result), expect.text, `${edited}: ${text(result)}`);
        assert.is(result.isError, expect.ran === undefined ? true : undefined, edited);
        assert.equal(transfers.slice(before), expect.ran === undefined ? [] : [expect.ran], edited);
      } finally {
        await client.close();
      }
    }
  });
});

test("the question shows every value: a long one is cut on its own, with a plain word, and never hides another", () => {
  const padded = approvalQuestion("pay", { amount: 25, memo: `Lunch${" ".repeat(2000)}`, to: "IBAN-ATTACKER" }, true);
  const message = padded.message as string;
  assert.match(message, /^- amount: 25$/m);
  assert.match(message, /^- memo: "Lunch {10,}… \(2007 characters, cut here\)$/m);
  assert.match(message, /^- to: "IBAN-ATTACKER"$/m);
  assert.match(
    message,
    /Some values are too long to show whole: each is cut where marked, and every value is listed\./,
  );
  assert.ok(message.length < 3000);
  // Nested: the recipient inside an object is a line of its own too.
  const nested = approvalQuestion("pay", { payment: { memo: "x".repeat(5000), to: "IBAN-ATTACKER" } }, true)
    .message as string;
  assert.match(nested, /^- payment\.to: "IBAN-ATTACKER"$/m);
  // Past 4,000 characters the arguments can still be edited; past 64 KiB the question says plainly they cannot.
  const long = approvalQuestion("pay", { memo: "y".repeat(10_000), to: "x" }, true);
  assert.ok("arguments" in (long.requestedSchema as { properties: object }).properties);
  const huge = approvalQuestion("pay", { memo: "y".repeat(70_000), to: "x" }, true);
  assert.not.ok("arguments" in (huge.requestedSchema as { properties: object }).properties);
  assert.match(huge.message as string, /too long to offer for editing here/);
  // Many values: the first hundred lines, and how many more there are.
  const many = approvalQuestion("pay", { items: Array.from({ length: 150 }, (_, i) => i) }, true).message as string;
  assert.match(many, /^- items\[99\]: 99$/m);
  assert.match(many, /50 more values are not shown \(150 in all\)\./);
});

test("a client that declares no elicitation gets a tool error saying why, and nothing runs", async () => {
  await withNodeHandler(createApprovalRegistry(), undefined, async (url) => {
    const client = await modernClient(url);
    try {
      const before = transfers.length;
      const result = await client.callTool({ name: "transfer", arguments: { to: "bob", amount: 1 } }, TIMEOUT);
      assert.is(result.isError, true);
      assert.match(
        text(result),
        /transfer needs a human's approval before it runs \(needsApproval\), and this client cannot ask one: it declares no elicitation/,
      );
      assert.is(transfers.length, before);
    } finally {
      await client.close();
    }
    // An SDK 1.x client over HTTP, even one that declares elicitation: a stateless POST cannot wait for its answer.
    const legacy = new LegacyClient({ name: "old", version: "1" }, { capabilities: { elicitation: {} } });
    const { StreamableHTTPClientTransport: LegacyHttp } = await import(
      "@modelcontextprotocol/sdk/client/streamableHttp.js"
    );
    await legacy.connect(new LegacyHttp(url), TIMEOUT);
    try {
      const result = (await legacy.callTool(
        { name: "transfer", arguments: { to: "bob", amount: 1 } },
        undefined,
        TIMEOUT,
      )) as CallToolResult;
      assert.is(result.isError, true);
      assert.match(
        text(result),
        /cannot wait for a question's answer; use a client of the 2026-07-28 revision, or stdio/,
      );
    } finally {
      await legacy.close();
    }
  });
});

test("requestState: edited, replayed, brought to other arguments or by another caller, it is refused and nothing runs", async () => {
  const users: MCPHttpOptions = {
    authenticate: (request) => request.headers.get("authorization")?.slice(7) || undefined,
  };
  await withNodeHandler(createApprovalRegistry(), users, async (url) => {
    const alice = { authorization: "Bearer alice" };
    const asked = await post(url, call({ to: "bob", amount: 5 }), alice);
    assert.is(asked.result!.resultType, "input_required");
    assert.equal(Object.keys(asked.result!.inputRequests), ["approval"]);
    assert.is(asked.result!.inputRequests.approval.method, "elicitation/create");
    const state = asked.result!.requestState as string;
    const yes = { approval: { action: "accept", content: { approve: true } } };
    const before = transfers.length;

    const [payload, mac] = state.split(".");
    const edited = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8"));
    edited.state.calls[0].args.amount = 5000;
    const forged = `${Buffer.from(JSON.stringify(edited)).toString("base64url")}.${mac}`;
    // A million levels of nesting under a made-up seal: refused by the seal, before anything is parsed.
    const deep = `${Buffer.from("[".repeat(1_000_000)).toString("base64url")}.${"0".repeat(64)}`;
    const refusals: [unknown, Record<string, string>, RegExp][] = [
      [
        call({ to: "bob", amount: 5000 }, { requestState: forged, inputResponses: yes }, 2),
        alice,
        /seal does not match/,
      ],
      [
        call({ to: "bob", amount: 50 }, { requestState: state, inputResponses: yes }, 3),
        alice,
        /belongs to another call/,
      ],
      [
        call({ to: "bob", amount: 5 }, { requestState: state, inputResponses: yes }, 4),
        { authorization: "Bearer mallory" },
        /issued to another caller/,
      ],
      [
        call({ to: "bob", amount: 5 }, { requestState: "not a state", inputResponses: yes }, 5),
        alice,
        /not a state this server issued/,
      ],
      [call({ to: "bob", amount: 5 }, { requestState: deep, inputResponses: yes }, 9), alice, /seal does not match/],
    ];
    for (const [body, headers, why] of refusals) {
      const answer = await post(url, body, headers);
      assert.is(answer.error?.code, -32602, String(why));
      assert.match(answer.error!.message, why);
    }
    assert.is(transfers.length, before);

    // No answer yet: asked again with the same state.
    const again = await post(url, call({ to: "bob", amount: 5 }, { requestState: state }, 6), alice);
    assert.is(again.result!.resultType, "input_required");
    assert.is(again.result!.requestState, state);

    const done = await post(
      url,
      call({ to: "bob", amount: 5 }, { requestState: state, inputResponses: yes }, 7),
      alice,
    );
    assert.is(done.result!.content[0].text, "sent 5 to bob");
    assert.is(transfers.length, before + 1);
    const replay = await post(
      url,
      call({ to: "bob", amount: 5 }, { requestState: state, inputResponses: yes }, 8),
      alice,
    );
    assert.match(replay.error!.message, /resumed before/);
    // A replay with deeply nested edits is refused for the replay before the edits are read.
    const deepEdit = { approval: { action: "accept", content: { approve: true, arguments: "[".repeat(500_000) } } };
    const replayed = await post(
      url,
      call({ to: "bob", amount: 5 }, { requestState: state, inputResponses: deepEdit }, 10),
      alice,
    );
    assert.match(replayed.error!.message, /it was resumed before/);
    assert.is(transfers.length, before + 1);
  });
});

test("a caller that cannot be named (BigInt, cycle, Map, private fields) gets no state; callerId names it, and then another caller cannot resume it", async () => {
  class Claims {
    readonly #user: string;
    constructor(user: string) {
      this.#user = user;
    }
    get user(): string {
      return this.#user;
    }
  }
  const shapes: Record<string, (user: string) => unknown> = {
    bigint: (user) => ({ user, n: BigInt(1) }),
    cycle: (user) => {
      const claims: Record<string, unknown> = { user };
      claims.self = claims;
      return claims;
    },
    map: (user) => new Map([["user", user]]),
    private: (user) => new Claims(user),
  };
  for (const [shape, make] of Object.entries(shapes)) {
    const users: MCPHttpOptions = { authenticate: (request) => make(request.headers.get("authorization")!.slice(7)) };
    await withNodeHandler(createApprovalRegistry(), users, async (url) => {
      const before = transfers.length;
      const asked = await post(url, call({ to: "bob", amount: 5 }), { authorization: "Bearer alice" });
      assert.is(asked.result!.isError, true, shape);
      assert.is(asked.result!.requestState, undefined, `${shape}: no state issued`);
      assert.match(asked.result!.content[0].text, /cannot tell this caller from another .* callerId\(auth\)/);
      assert.is(transfers.length, before);
    });
    // The app names its callers: Alice's state is hers alone.
    const named: MCPHttpOptions = {
      ...users,
      callerId: (auth) => (auth instanceof Map ? String(auth.get("user")) : String((auth as { user: string }).user)),
    };
    await withNodeHandler(createApprovalRegistry(), named, async (url) => {
      const asked = await post(url, call({ to: "bob", amount: 5 }), { authorization: "Bearer alice" });
      const state = asked.result!.requestState as string;
      assert.type(state, "string", shape);
      const yes = { approval: { action: "accept", content: { approve: true } } };
      const mallory = await post(url, call({ to: "bob", amount: 5 }, { requestState: state, inputResponses: yes }, 2), {
        authorization: "Bearer mallory",
      });
      assert.match(mallory.error!.message, /issued to another caller/, shape);
      const alice = await post(url, call({ to: "bob", amount: 5 }, { requestState: state, inputResponses: yes }, 3), {
        authorization: "Bearer alice",
      });
      assert.is(alice.result!.content[0].text, "sent 5 to bob", shape);
    });
  }
});

test("with a shared approvalSecret, another instance resumes the state (no server memory)", async () => {
  await withNodeHandler(createApprovalRegistry(SECRET), undefined, async (first) => {
    await withNodeHandler(createApprovalRegistry(SECRET), undefined, async (second) => {
      const asked = await post(first, call({ to: "carol", amount: 2 }));
      const state = asked.result!.requestState as string;
      const done = await post(
        second,
        call(
          { to: "carol", amount: 2 },
          { requestState: state, inputResponses: { approval: { action: "accept", content: { approve: true } } } },
          2,
        ),
      );
      assert.is(done.result!.content[0].text, "sent 2 to carol");
    });
  });
  // Without the secret, the other registry cannot verify it.
  await withNodeHandler(createApprovalRegistry(SECRET), undefined, async (first) => {
    await withNodeHandler(createApprovalRegistry(), undefined, async (second) => {
      const state = (await post(first, call({ to: "carol", amount: 3 }))).result!.requestState as string;
      const refused = await post(
        second,
        call(
          { to: "carol", amount: 3 },
          { requestState: state, inputResponses: { approval: { action: "accept", content: { approve: true } } } },
          2,
        ),
      );
      assert.match(refused.error!.message, /seal does not match/);
    });
  });
});

test("an SDK 1.x client on a live connection (serveMCP) is asked with elicitation/create", async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = await serveMCP(createApprovalRegistry(), serverSide);
  const client = new LegacyClient({ name: "desktop", version: "1" }, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: "accept", content: { approve: true } };
  });
  await client.connect(clientSide, TIMEOUT);
  try {
    const before = transfers.length;
    const result = (await client.callTool(
      { name: "transfer", arguments: { to: "dan", amount: 7 } },
      undefined,
      TIMEOUT,
    )) as CallToolResult;
    assert.is(text(result), "sent 7 to dan");
    assert.equal(transfers.slice(before), ["7 to dan"]);
    assert.is(asked.length, 1);
  } finally {
    await client.close();
    await server.close();
  }
});

test("the old client helper still connects (legacy initialize over HTTP) next to approval tools", async () => {
  await withNodeHandler(createApprovalRegistry(), undefined, async (url) => {
    const client = await connect(url);
    const { tools } = await client.listTools(undefined, TIMEOUT);
    assert.equal(
      tools.map((t) => t.name),
      ["add", "transfer"],
    );
    await client.close();
  });
});

test.run();

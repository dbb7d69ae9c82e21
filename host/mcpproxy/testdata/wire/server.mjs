// A stdio MCP server that writes its results as fixed JSON text, to check
// that compact passes them exactly: server info members and capabilities
// the Go SDK does not know, paginated tools in the server's own order
// with their annotations and execution as written, optional methods it
// does not implement, and numbers no float64 can hold.
//
//   node server.mjs [MODE]  (every request line is also logged to stderr)
//
// tools/call of "surrogate" answers a long text with lone surrogates;
// "mirror" the same text in a block and in structuredContent's content,
// beside values no Go type holds as written;
// "exact" answers a short text and structuredContent holding values no
// Go type holds as written (12345678901234567890, 1e400, -0, 1.0, a lone
// surrogate), and the same in its _meta.
// tools/call of "ask" asks the client a question (roots/list,
// sampling/createMessage, elicitation/create) and answers with the
// client's answer line as it came.
//
// MODE "2026": also answer server/discover (protocol 2026-07-28, so a
// client on it skips initialize); tools/call of "mrtr" answers an
// input-required result holding numbers no float64 holds, and a call
// with inputResponses with its request line as it came.
//
// MODE "stubborn": ignore SIGTERM and the end of stdin, as a careless
// server does; "garbage": also answer tools/call with a line that is not
// JSON; "late-garbage": the same, half a second later.
import readline from "node:readline";

const mode = process.argv[2] ?? "";
if (mode === "stubborn" || mode.endsWith("garbage")) {
  process.on("SIGTERM", () => {});
  setInterval(() => {}, 1 << 30);
}

const results = {
  initialize: `{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true},"resources":{},"tasks":{"requests":{"tools":{"call":{}}}},"experimental":{"acme/x":{"on":true}},"extensions":{"io.acme/y":{}}},"serverInfo":{"name":"wire","version":"1.2.3","title":"Wire Server","websiteUrl":"https://example.invalid/wire","icons":[{"src":"https://example.invalid/i.png","mimeType":"image/png"}]},"instructions":"Use the zeta tool first. \\udfff"}`,
  "tools/list:": `{"tools":[{"name":"zeta","description":"Z","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true},"execution":{"taskSupport":"optional"}},{"name":"alpha","description":"A","inputSchema":{"type":"object","properties":{"n":{"type":"integer","maximum":12345678901234567890}}}}],"nextCursor":"page2"}`,
  "tools/list:page2": `{"tools":[{"name":"mid","description":"M \\ud800 lone","inputSchema":{"type":"object"},"annotations":{"destructiveHint":false}}]}`,
  "tools/call": `{"content":[{"type":"text","text":"{\\"n\\":12345678901234567890,\\"f\\":1.10}"}],"structuredContent":{"n":12345678901234567890,"f":1.10},"isError":false,"_meta":{"acme/trace":"t-1"}}`,
  "tools/call:exact": `{"content":[{"type":"text","text":"n=12345678901234567890 e=1e400 z=-0 f=1.0 lone=\\ud800 end"}],"structuredContent":{"big":12345678901234567890,"huge":1e400,"negz":-0,"one":1.0,"lone":"\\ud800","list":[12345678901234567890,1e400,-0,1.0,"a\\udc00b"]},"isError":false,"_meta":{"acme/n":12345678901234567890,"acme/e":1e400,"acme/z":-0,"acme/f":1.0,"acme/s":"\\ud800"}}`,
  "tasks/list:": `{"tasks":[{"taskId":"t-1","status":"working","ttl":12345678901234567890,"pollInterval":1.0}]}`,
  "resources/list:": `{"resources":[{"uri":"wire://a","name":"a"}]}`,
};

// tools/call of "ask" {method, params} asks the client that question and
// answers the call with the client's answer line exactly as it came.
const asked = new Map();

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  process.stderr.write(line + "\n");
  const msg = JSON.parse(line);
  if (msg.method === undefined && asked.has(msg.id)) {
    const callId = asked.get(msg.id);
    asked.delete(msg.id);
    const result = { content: [{ type: "text", text: line }] };
    process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(callId)},"result":${JSON.stringify(result)}}\n`);
    return;
  }
  if (msg.id === undefined || msg.method === undefined) return;
  if (msg.method === "tools/call" && (msg.params?.name === "surrogate" || msg.params?.name === "mirror")) {
    // A text with lone surrogates (JSON.stringify writes them as \ud800
    // escapes), long enough to be compacted.
    const lines = [];
    for (let i = 0; i < 400; i++) lines.push(`line ${i}: some log text with value ${i * 7}`);
    lines.push("last line: a lone \ud800 high and a lone \udfff low surrogate, and a pair \ud83d\ude00");
    const text = JSON.stringify(lines.join("\n"));
    const result = msg.params.name === "mirror"
      ? `{"content":[{"type":"text","text":${text}}],"structuredContent":{"content":${text},"count":12345678901234567890,"ratio":1.0,"huge":1e400,"negz":-0,"lone":"\\ud800"}}`
      : `{"content":[{"type":"text","text":${text}}]}`;
    process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":${result}}\n`);
    return;
  }
  if (mode === "2026" && msg.method === "server/discover") {
    process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"wire","version":"1.2.3"}},"ttlMs":0,"cacheScope":"public"}}\n`);
    return;
  }
  if (msg.method === "tools/call" && msg.params?.name === "mrtr") {
    const result = msg.params.inputResponses === undefined
      ? `{"resultType":"input_required","inputRequests":{"q1":{"method":"elicitation/create","params":{"message":"How many?","requestedSchema":{"type":"object","properties":{"n":{"type":"number","default":12345678901234567890,"maximum":1e400,"multipleOf":1.0}}}}}},"requestState":"st-1","_meta":{"acme/n":-0}}`
      : JSON.stringify({ content: [{ type: "text", text: line }] });
    process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":${result}}\n`);
    return;
  }
  if (msg.method === "tools/call" && msg.params?.name === "ask") {
    const qid = "ask-" + msg.id;
    asked.set(qid, msg.id);
    const a = msg.params.arguments;
    process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(qid)},"method":${JSON.stringify(a.method)},"params":${JSON.stringify(a.params ?? {})}}\n`);
    return;
  }
  let key = msg.method;
  if (key.endsWith("/list")) key += ":" + (msg.params?.cursor ?? "");
  if (key === "tools/call" && results["tools/call:" + msg.params?.name] !== undefined) key += ":" + msg.params.name;
  if (mode === "garbage" && msg.method === "tools/call") {
    process.stdout.write("this is not JSON\n");
    return;
  }
  if (mode === "late-garbage" && msg.method === "tools/call") {
    setTimeout(() => process.stdout.write("this is not JSON\n"), 500);
    return;
  }
  const r = results[key];
  const out = r !== undefined
    ? `{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":${r}}`
    : `{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"error":{"code":-32601,"message":"Method not found: ${msg.method}"}}`;
  process.stdout.write(out + "\n");
});

// The official TypeScript MCP client, with roots, in front of
// `compact mcp` in front of server-filesystem: the server asks the
// client for its roots through the proxy and serves them instead of the
// directory on its command line. The Go test
// (cmd/compact/internal/cli/mcp_test.go) runs it and checks the JSON it
// prints.
//
// usage: node roots.mjs ROOT COMMAND ARGS...
//   ROOT     has subdirectories one and two; the client's roots are first
//            ROOT/one, then ROOT/two
//   COMMAND  the proxy to spawn (compact mcp ... -- node server ROOT)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [root, command, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
const client = new Client({ name: "ts-roots", version: "1.0.0" }, { capabilities: { roots: { listChanged: true } } });
let roots = [{ uri: "file://" + root + "/one", name: "one" }];
let asked = 0;
client.setRequestHandler(ListRootsRequestSchema, async () => {
  asked++;
  return { roots };
});
await client.connect(transport);

async function allowedUntil(want) {
  let text = "";
  for (let i = 0; i < 100; i++) {
    const res = await client.callTool({ name: "list_allowed_directories", arguments: {} });
    text = res.content[0].text;
    if (text.includes(want)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return text;
}

const out = {};
out.first = await allowedUntil(root + "/one");
// The change is made several times, while the poll's calls are in
// flight: the upstream's roots/list after each roots/list_changed must
// reach the client whatever call is in flight (it once was cancelled with
// the unrelated call that happened to be running).
for (let i = 0; i < 6; i++) {
  const d = i % 2 === 0 ? "two" : "one";
  roots = [{ uri: "file://" + root + "/" + d, name: d }];
  await client.sendRootsListChanged();
  out.second = await allowedUntil(root + "/" + d);
  if (!out.second.includes(root + "/" + d)) break;
}
roots = [{ uri: "file://" + root + "/two", name: "two" }];
await client.sendRootsListChanged();
out.second = await allowedUntil(root + "/two");
out.asked = asked;
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");

// A scenario driven by the official TypeScript MCP client against
// `compact mcp` in front of server-filesystem. The Go test
// (cmd/compact/internal/cli/mcp_test.go) runs it and checks the JSON it
// prints against the real files.
//
// usage: node client.mjs ROOT COMMAND ARGS...
//   ROOT     the directory server-filesystem serves
//   COMMAND  the proxy to spawn (compact mcp ... -- node server ROOT)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [root, command, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
const client = new Client({ name: "ts-scenario", version: "1.0.0" });
await client.connect(transport);

const out = {};
const { tools } = await client.listTools();
out.tools = tools.map((t) => t.name).sort();
out.writeFileDescription = tools.find((t) => t.name === "write_file")?.description;

// A tree too large for the budget: a summary and a handle. callTool
// validates structuredContent against the tool's outputSchema.
const tree = await client.callTool({ name: "directory_tree", arguments: { path: root } });
out.tree = { text: tree.content[0].text, meta: tree._meta?.compact, structured: tree.structuredContent };
const handle = tree._meta?.compact?.results?.[0]?.artifact?.handle;
out.handle = handle;

// Questions over the stored tree.
const files = await client.callTool({
  name: "read_artifact",
  arguments: { ref: handle, op: "jq", filter: '[.. | objects | select(.type == "file")] | length' },
});
out.fileCount = files.content[0].text;

// A memory pointer: the whole tree flows into write_file.
const write = await client.callTool({ name: "write_file", arguments: { path: root + "/tree.json", content: handle } });
out.write = { text: write.content[0].text, isError: write.isError ?? false };

// An explicit artifact: reference to a handle that does not exist is refused
// (a bare hex string that names no artifact reaches the upstream unchanged).
const bad = await client.callTool({ name: "write_file", arguments: { path: root + "/bad.txt", content: "artifact:abcdef0123456789" } });
out.bad = { text: bad.content[0].text, isError: bad.isError ?? false };

await client.close();
process.stdout.write(JSON.stringify(out) + "\n");

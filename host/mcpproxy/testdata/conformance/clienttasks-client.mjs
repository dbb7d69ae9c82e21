// A client on the official TypeScript SDK that runs tasks of its own
// (SEP-1686, client side): it announces tasks for elicitation (and an
// experimental capability), answers an elicitation made as a task by
// creating a task in its task store and completing it shortly after, and
// answers tasks/get, tasks/list and tasks/result from that store. It
// calls clienttasks-server.mjs's tool "ask" and prints one JSON line:
// the capabilities it announced and the tool's text.
//
//   node clienttasks-client.mjs stdio COMMAND ARGS...
//   node clienttasks-client.mjs http URL
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [mode, ...rest] = process.argv.slice(2);
const transport = mode === "http"
  ? new StreamableHTTPClientTransport(new URL(rest[0]))
  : new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: "ignore" });
const capabilities = {
  elicitation: { form: {} },
  tasks: { list: {}, cancel: {}, requests: { elicitation: { create: {} } } },
  experimental: { "compact.test/echo": { level: 2, tags: ["a", "b"] } },
};
const client = new Client({ name: "client-tasks-check", version: "1" }, { capabilities, taskStore: new InMemoryTaskStore() });
client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
  const answer = { action: "accept", content: { name: "Ada" } };
  if (!req.params.task) {
    return answer;
  }
  const task = await extra.taskStore.createTask({ ttl: req.params.task.ttl });
  setTimeout(() => extra.taskStore.storeTaskResult(task.taskId, "completed", answer).catch(() => {}), 150);
  return { task };
});
await client.connect(transport);
const res = await client.callTool({ name: "ask", arguments: {} });
console.log(JSON.stringify({ announced: capabilities, text: res.content?.[0]?.text ?? null }));
await client.close();
process.exit(0);

// A client on the official TypeScript SDK that uses MCP tasks (SEP-1686)
// the way a strict client does, against server-everything's
// simulate-research-query tool (execution.taskSupport "required"): it
// prints what it saw as one JSON line, for host/mcpproxy's
// TestTasksPassThrough to compare directly and through compact.
//
//   node tasks.mjs stdio COMMAND ARGS...
//   node tasks.mjs http URL
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { TaskStatusNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const [mode, ...rest] = process.argv.slice(2);
const transport = mode === "http"
  ? new StreamableHTTPClientTransport(new URL(rest[0]))
  : new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: "ignore" });
const client = new Client({ name: "tasks-check", version: "1" }, { capabilities: {} });
const notified = new Set();
client.setNotificationHandler(TaskStatusNotificationSchema, (n) => { notified.add(n.params.status); });
await client.connect(transport);

const tool = "simulate-research-query";
const out = {
  server: client.getServerVersion(),
  tasks: client.getServerCapabilities()?.tasks ?? null,
};
const { tools } = await client.listTools();
out.execution = tools.find((t) => t.name === tool)?.execution ?? null;

// The whole life of a task: created, polled with tasks/get, its result
// fetched with tasks/result.
const seen = [];
for await (const m of client.experimental.tasks.callToolStream({ name: tool, arguments: { topic: "compact" } })) {
  if (m.type === "result") {
    seen.push({ type: "result", isError: m.result.isError ?? false, text: m.result.content?.[0]?.text });
  } else if (m.type === "error") {
    seen.push({ type: "error", error: String(m.error) });
  } else if (seen.at(-1)?.type !== m.type || seen.at(-1)?.status !== m.task.status) {
    seen.push({ type: m.type, status: m.task.status });
  }
}
out.stream = seen;

// Another task: tasks/get, tasks/list and tasks/cancel.
const { task } = await client.request(
  { method: "tools/call", params: { name: tool, arguments: { topic: "second" }, task: { ttl: 60000 } } },
  (await import("@modelcontextprotocol/sdk/types.js")).CreateTaskResultSchema,
);
out.created = { status: task.status, ttl: task.ttl, pollInterval: task.pollInterval };
out.got = (await client.experimental.tasks.getTask(task.taskId)).status;
out.listed = (await client.experimental.tasks.listTasks()).tasks.some((t) => t.taskId === task.taskId);
out.cancel = (await client.experimental.tasks.cancelTask(task.taskId)).status;
out.after = (await client.experimental.tasks.getTask(task.taskId)).status;
try {
  await client.experimental.tasks.getTask("no-such-task");
  out.unknown = "answered";
} catch (e) {
  out.unknown = String(e.code ?? e);
}
out.notified = [...notified].sort();
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
process.exit(0);

// An MCP server on the official TypeScript SDK that asks its client for
// input as a task (SEP-1686, client side): its tool "ask" sends
// elicitation/create made as a task, polls the client's task with
// tasks/get, lists the client's tasks with tasks/list, and fetches the
// answer with tasks/result. It is strict (enforceStrictCapabilities): it
// asks only a client that announced tasks for elicitation. Every message
// it receives is logged as one JSON line in LOG ({"method", and for
// initialize its "params"}), so host/mcpproxy's TestClientCapabilitiesAndTasks
// can count initializes and read the capabilities it was told.
//
//   node clienttasks-server.mjs stdio LOG
//   PORT=N node clienttasks-server.mjs http LOG
import { appendFileSync } from "node:fs";
import http from "node:http";
import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema, ListToolsRequestSchema, CreateTaskResultSchema, GetTaskResultSchema,
  ListTasksResultSchema, ElicitResultSchema,
} from "@modelcontextprotocol/sdk/types.js";

const [mode, log] = process.argv.slice(2);

function logged(t) {
  const inner = t.onmessage;
  t.onmessage = (msg, extra) => {
    if (msg.method) {
      appendFileSync(log, JSON.stringify(msg.method === "initialize" ? { method: msg.method, params: msg.params } : { method: msg.method }) + "\n");
    }
    inner?.(msg, extra);
  };
}

function newServer() {
  const server = new Server({ name: "client-tasks", version: "1.0.0" }, { capabilities: { tools: {} }, enforceStrictCapabilities: true });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: "ask", description: "Asks the user for a name, as a task of the client.", inputSchema: { type: "object", properties: {} } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const out = {};
    try {
      const created = await extra.sendRequest({
        method: "elicitation/create",
        params: { mode: "form", message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
      }, CreateTaskResultSchema, { task: { ttl: 60000 } });
      const id = created.task.taskId;
      out.created = created.task.status;
      let status = created.task.status;
      for (let i = 0; i < 200 && status === "working"; i++) {
        await new Promise((r) => setTimeout(r, 25));
        status = (await extra.sendRequest({ method: "tasks/get", params: { taskId: id } }, GetTaskResultSchema)).status;
      }
      out.polled = status;
      out.listed = (await extra.sendRequest({ method: "tasks/list", params: {} }, ListTasksResultSchema)).tasks.map((t) => t.taskId === id ? "ours" : "other");
      const result = await extra.sendRequest({ method: "tasks/result", params: { taskId: id } }, ElicitResultSchema);
      out.result = { action: result.action, content: result.content };
      try {
        await extra.sendRequest({ method: "tasks/get", params: { taskId: "no-such-task" } }, GetTaskResultSchema);
        out.unknown = "answered";
      } catch (e) {
        out.unknown = String(e.code ?? e);
      }
    } catch (e) {
      out.error = String(e.message ?? e);
    }
    return { content: [{ type: "text", text: JSON.stringify(out) }] };
  });
  return server;
}

if (mode === "http") {
  const sessions = new Map();
  http.createServer(async (req, res) => {
    let body;
    if (req.method === "POST") {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
    }
    const sid = req.headers["mcp-session-id"];
    let t = sid && sessions.get(sid);
    if (!t) {
      if (sid || req.method !== "POST") {
        res.writeHead(404).end("unknown session");
        return;
      }
      t = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => sessions.set(id, t) });
      t.onclose = () => t.sessionId && sessions.delete(t.sessionId);
      await newServer().connect(t);
      logged(t);
    }
    await t.handleRequest(req, res, body);
  }).listen(Number(process.env.PORT), "127.0.0.1", () => console.error(`listening on ${process.env.PORT}`));
} else {
  const t = new StdioServerTransport();
  await newServer().connect(t);
  logged(t);
}

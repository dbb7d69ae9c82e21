// A server for the MCP conformance suite's server scenarios, built on the
// official TypeScript SDK's low-level Server (so every schema and result
// goes on the wire exactly as written here). It implements what each
// scenario's "Server Implementation Requirements" ask (tools test_*,
// resources test://..., prompts test_*, completion, logging), so that
// the suite scores every scenario, and compact's conformance test can
// compare the scores directly and through compact.
//
//   node server.mjs stdio          serve one client on stdin/stdout
//   PORT=N node server.mjs http    serve streamable HTTP on 127.0.0.1:N/mcp
import http from "node:http";
import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema, ListToolsRequestSchema, ListResourcesRequestSchema, ReadResourceRequestSchema,
  ListResourceTemplatesRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema, ListPromptsRequestSchema,
  GetPromptRequestSchema, CompleteRequestSchema, SetLevelRequestSchema, CreateMessageResultSchema, ElicitResultSchema,
} from "@modelcontextprotocol/sdk/types.js";

// A 1x1 PNG and a tiny WAV.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";
const empty = { type: "object", properties: {} };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const tools = [
  { name: "test_simple_text", description: "Returns simple text", inputSchema: empty },
  { name: "test_image_content", description: "Returns an image", inputSchema: empty },
  { name: "test_audio_content", description: "Returns audio", inputSchema: empty },
  { name: "test_embedded_resource", description: "Returns an embedded resource", inputSchema: empty },
  { name: "test_multiple_content_types", description: "Returns text, image and resource", inputSchema: empty },
  { name: "test_tool_with_logging", description: "Logs three messages while it runs", inputSchema: empty },
  { name: "test_error_handling", description: "Always fails", inputSchema: empty },
  { name: "test_tool_with_progress", description: "Reports progress three times", inputSchema: empty },
  { name: "test_sampling", description: "Asks the client to sample", inputSchema: { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] } },
  { name: "test_elicitation", description: "Asks the user for input", inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] } },
  { name: "test_elicitation_sep1034_defaults", description: "Elicitation with defaults", inputSchema: empty },
  { name: "test_elicitation_sep1330_enums", description: "Elicitation with enums", inputSchema: empty },
  {
    name: "json_schema_2020_12_tool", description: "JSON Schema 2020-12 keywords",
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema", type: "object",
      $defs: { address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
      properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
      additionalProperties: false,
    },
  },
];

function newServer() {
  const server = new Server({ name: "compact-conformance-server", version: "1.0.0" }, {
    capabilities: { tools: {}, resources: { subscribe: true }, prompts: {}, logging: {}, completions: {} },
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const text = (t) => ({ type: "text", text: t });
    switch (req.params.name) {
      case "test_simple_text":
        return { content: [text("This is a simple text response for testing.")] };
      case "test_image_content":
        return { content: [{ type: "image", data: PNG, mimeType: "image/png" }] };
      case "test_audio_content":
        return { content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] };
      case "test_embedded_resource":
        return { content: [{ type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } }] };
      case "test_multiple_content_types":
        return { content: [text("Multiple content types test:"), { type: "image", data: PNG, mimeType: "image/png" },
          { type: "resource", resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: "{\"test\":\"data\",\"value\":123}" } }] };
      case "test_tool_with_logging":
        for (const msg of ["Tool execution started", "Tool processing data", "Tool execution completed"]) {
          await extra.sendNotification({ method: "notifications/message", params: { level: "info", data: msg } });
          await sleep(50);
        }
        return { content: [text("Tool with logging executed successfully")] };
      case "test_error_handling":
        return { isError: true, content: [text("This tool intentionally returns an error for testing")] };
      case "test_tool_with_progress": {
        const token = req.params._meta?.progressToken;
        for (const p of [0, 50, 100]) {
          if (token !== undefined) await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: p, total: 100, message: `Completed step ${p} of 100` } });
          await sleep(50);
        }
        return { content: [text(String(token))] };
      }
      case "test_sampling": {
        const r = await extra.sendRequest({ method: "sampling/createMessage", params: {
          messages: [{ role: "user", content: { type: "text", text: req.params.arguments?.prompt ?? "" } }], maxTokens: 100 } }, CreateMessageResultSchema);
        return { content: [text(`LLM response: ${r.content?.text ?? JSON.stringify(r.content)}`)] };
      }
      case "test_elicitation": {
        const r = await extra.sendRequest({ method: "elicitation/create", params: {
          message: req.params.arguments?.message ?? "",
          requestedSchema: { type: "object", properties: { username: { type: "string", description: "User's response" }, email: { type: "string", description: "User's email address" } }, required: ["username", "email"] } } }, ElicitResultSchema);
        return { content: [text(`User response: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`)] };
      }
      case "test_elicitation_sep1034_defaults": {
        const r = await extra.sendRequest({ method: "elicitation/create", params: {
          message: "Please review and update the form fields with defaults",
          requestedSchema: { type: "object", properties: {
            name: { type: "string", description: "User name", default: "John Doe" },
            age: { type: "integer", description: "User age", default: 30 },
            score: { type: "number", description: "User score", default: 95.5 },
            status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
            verified: { type: "boolean", description: "Verification status", default: true },
          } } } }, ElicitResultSchema);
        return { content: [text(`Elicitation completed: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`)] };
      }
      case "test_elicitation_sep1330_enums": {
        const r = await extra.sendRequest({ method: "elicitation/create", params: {
          message: "Please select options from the enum fields",
          requestedSchema: { type: "object", properties: {
            untitledSingle: { type: "string", description: "Select one option", enum: ["option1", "option2", "option3"] },
            titledSingle: { type: "string", description: "Select one option with titles", oneOf: [
              { const: "value1", title: "First Option" }, { const: "value2", title: "Second Option" }, { const: "value3", title: "Third Option" }] },
            legacyEnum: { type: "string", description: "Select one option (legacy)", enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
            untitledMulti: { type: "array", description: "Select multiple options", minItems: 1, maxItems: 3, items: { type: "string", enum: ["option1", "option2", "option3"] } },
            titledMulti: { type: "array", description: "Select multiple options with titles", minItems: 1, maxItems: 3, items: { anyOf: [
              { const: "value1", title: "First Choice" }, { const: "value2", title: "Second Choice" }, { const: "value3", title: "Third Choice" }] } },
          } } } }, ElicitResultSchema);
        return { content: [text(`Elicitation completed: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`)] };
      }
      case "json_schema_2020_12_tool":
        return { content: [text(JSON.stringify(req.params.arguments ?? {}))] };
    }
    return { isError: true, content: [text(`Tool ${req.params.name} not found`)] };
  });

  const resources = [
    { uri: "test://static-text", name: "static-text", mimeType: "text/plain" },
    { uri: "test://static-binary", name: "static-binary", mimeType: "image/png" },
    { uri: "test://watched-resource", name: "watched-resource", mimeType: "text/plain" },
  ];
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [{ uriTemplate: "test://template/{id}/data", name: "template", mimeType: "application/json" }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const uri = req.params.uri;
    if (uri === "test://static-text") return { contents: [{ uri, mimeType: "text/plain", text: "This is the content of the static text resource." }] };
    if (uri === "test://static-binary") return { contents: [{ uri, mimeType: "image/png", blob: PNG }] };
    if (uri === "test://watched-resource") return { contents: [{ uri, mimeType: "text/plain", text: "watched" }] };
    const m = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
    if (m) return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify({ id: m[1], templateTest: true, data: `Data for ID: ${m[1]}` }) }] };
    throw new Error(`Resource ${uri} not found`);
  });
  server.setRequestHandler(SubscribeRequestSchema, async () => ({}));
  server.setRequestHandler(UnsubscribeRequestSchema, async () => ({}));

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [
    { name: "test_simple_prompt", description: "A simple prompt" },
    { name: "test_prompt_with_arguments", description: "A prompt with arguments", arguments: [{ name: "arg1", required: true }, { name: "arg2", required: true }] },
    { name: "test_prompt_with_embedded_resource", description: "A prompt with a resource", arguments: [{ name: "resourceUri", required: true }] },
    { name: "test_prompt_with_image", description: "A prompt with an image" },
  ] }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    const a = req.params.arguments ?? {};
    switch (req.params.name) {
      case "test_simple_prompt":
        return { messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }] };
      case "test_prompt_with_arguments":
        return { messages: [{ role: "user", content: { type: "text", text: `Prompt with arguments: arg1='${a.arg1}', arg2='${a.arg2}'` } }] };
      case "test_prompt_with_embedded_resource":
        return { messages: [{ role: "user", content: { type: "resource", resource: { uri: a.resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." } } },
          { role: "user", content: { type: "text", text: "Please process the embedded resource above." } }] };
      case "test_prompt_with_image":
        return { messages: [{ role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
          { role: "user", content: { type: "text", text: "Please analyze the image above." } }] };
    }
    throw new Error(`Prompt ${req.params.name} not found`);
  });
  server.setRequestHandler(CompleteRequestSchema, async () => ({ completion: { values: [], total: 0, hasMore: false } }));
  server.setRequestHandler(SetLevelRequestSchema, async () => ({}));
  return server;
}

if (process.argv[2] === "http") {
  const sessions = new Map();
  http.createServer(async (req, res) => {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    if (!["localhost", "127.0.0.1", "[::1]"].includes(host)) {
      res.writeHead(403).end("forbidden host");
      return;
    }
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
    }
    await t.handleRequest(req, res, body);
  }).listen(Number(process.env.PORT), "127.0.0.1", () => console.error(`listening on ${process.env.PORT}`));
} else {
  await newServer().connect(new StdioServerTransport());
}

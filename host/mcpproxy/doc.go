// Package mcpproxy is compact's MCP front door: a Model Context Protocol
// proxy that sits between an agent and a real MCP server.
//
// The agent connects to the proxy (stdio or streamable HTTP); the proxy
// connects to the upstream server (a command over stdio, or a streamable
// HTTP URL). Tools, resources, prompts, completions, logging, progress and
// list-changed notifications are forwarded, so the agent sees the same
// server plus what compact adds:
//
//   - every tool result is compacted through the engine, per tool name,
//     so that it fits its budget; when a result is too large, the full
//     output is kept as an artifact and the model sees a summary with
//     exact counts and a handle;
//   - a read_artifact tool answers get, jq, slice and search over a
//     handle, each answer itself budgeted;
//   - memory pointers: a string argument of any tool that is an artifact
//     reference (a handle, or a handle with a path) is replaced with the
//     stored value before the upstream tool is called, so a large output
//     flows from one tool into the next without passing through the model.
//
// The upstream's questions to its client (roots, sampling, elicitation)
// go to the agent's client: inside the call's result on protocol
// 2026-07-28, or, on older protocols, to the one agent they can be for
// (see clientfeatures.go). Very large tool results, over stdio or
// streamable HTTP, go to the artifact store as they are read (spill.go,
// httpspill.go).
//
// See docs/sidecar.md for the behaviour in detail.
package mcpproxy

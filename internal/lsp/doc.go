// Package lsp is the language server of robots.txt (robots lsp): the
// Language Server Protocol 3.17 over standard input and output, answered
// by the same engine as the command line.
//
//   - Diagnostics are the findings of robots check, with its defaults:
//     lint.Run with the zero Config, folded by lint.Fold. Each has its
//     check's code (RBnnn) and "robots" as its source, a link to the
//     check in docs/checks.md, and the other lines of a folded problem and
//     the lines it refers to as related information. They are published
//     150 ms after the last change, by a run that a newer change cancels.
//   - Quick fixes are the fixer's edits (lint.SuggestedFix), proven as
//     robots fix proves them (change.Equivalent): the fixes that keep what
//     Google's and RFC 9309 robots read are preferred; the intent fixes,
//     which change what robots do, say so in their title; a fix the proof
//     refuses is shown disabled, with the URL whose verdict it would
//     change. "Fix all" is robots fix's output.
//   - Hover on an Allow or Disallow line says how each profile (google,
//     rfc9309, bing, yandex, draft1996, strict1994) reads it and which
//     robots of the registry (package agents) obey it; on a User-agent
//     line, which robots end up in that group, and how each finds it.
//     Both read the compiled rules (robots.Rules.Groups, AgentRules,
//     Access), the one reading every command reports.
//   - Completion offers the directives that package syntax knows at the
//     start of a line and the registry's robots after "User-agent:".
//   - Formatting is robots fmt (lint.Format).
//
// # Positions
//
// The server negotiates the position encoding (LSP 3.17
// positionEncoding): UTF-8 when the client offers it, else UTF-16, the
// protocol's default. The checker's positions are byte offsets into the
// text; they are converted line by line, lines ending at LF, CRLF or CR
// as in both package syntax and the protocol.
//
// # Bounds
//
// A message is at most MaxMessage bytes, a larger one is read past and
// reported; a document is checked when it holds at most MaxDocument
// bytes, what robots check reads of a file. A panic in the work of one
// request becomes that request's error response.
//
// # Why no LSP library
//
// The protocol subset is written here, over encoding/json: the base
// protocol is a Content-Length header and a JSON-RPC 2.0 body, and the
// server needs some twenty types. github.com/tliron/glsp (v0.2.2) types
// LSP 3.16 only, has no positionEncoding, and brings a dozen modules
// (sourcegraph/jsonrpc2, gorilla/websocket, tliron/commonlog and its
// terminal colouring, a deadlock detector) and a global logger;
// go.lsp.dev/protocol (v0.12.0, 2022) types 3.16 too and brings zap and
// segmentio/encoding. Neither earns its weight for this subset.
package lsp

package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"
)

// client speaks the protocol to a server for the tests: requests with
// their responses, and the notifications the server sends meanwhile.
type client struct {
	t      *testing.T
	w      io.Writer
	mu     sync.Mutex
	id     int
	resps  map[int]chan rawMessage
	notes  chan rawMessage
	closed chan struct{}
}

type rawMessage struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// newClient reads the server's messages from r and writes to w.
func newClient(t *testing.T, r io.Reader, w io.Writer) *client {
	c := &client{t: t, w: w, resps: map[int]chan rawMessage{}, notes: make(chan rawMessage, 1024), closed: make(chan struct{})}
	go func() {
		defer close(c.closed)
		br := bufio.NewReader(r)
		for {
			body, err := readMessage(br)
			if err != nil {
				return
			}
			var m rawMessage
			if err := json.Unmarshal(body, &m); err != nil {
				t.Errorf("the server sent a message that is not JSON: %v: %s", err, body)
				return
			}
			if m.Method != "" {
				c.notes <- m
				continue
			}
			if m.ID == nil { // an error that could name no request
				c.notes <- m
				continue
			}
			c.mu.Lock()
			ch := c.resps[*m.ID]
			c.mu.Unlock()
			if ch == nil {
				t.Errorf("a response to no request: %s", body)
				continue
			}
			ch <- m
		}
	}()
	return c
}

// startServer runs Serve over in-memory pipes; done receives its error.
func startServer(t *testing.T) (*client, io.Closer, <-chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := Serve(context.Background(), inR, outW, &Options{Version: "test", Debounce: 10 * time.Millisecond})
		outW.Close()
		done <- err
	}()
	c := newClient(t, outR, inW)
	t.Cleanup(func() { inW.Close() })
	return c, inW, done
}

func (c *client) send(v any) {
	c.t.Helper()
	body, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Fatal(err)
	}
}

// call sends a request and waits for its response.
func (c *client) call(method string, params any) rawMessage {
	c.t.Helper()
	c.mu.Lock()
	c.id++
	id := c.id
	ch := make(chan rawMessage, 1)
	c.resps[id] = ch
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	select {
	case m := <-ch:
		return m
	case <-time.After(30 * time.Second):
		c.t.Fatalf("no response to %s", method)
	}
	return rawMessage{}
}

// result calls method and decodes its result into v; an error response
// fails the test.
func (c *client) result(method string, params, v any) {
	c.t.Helper()
	m := c.call(method, params)
	if m.Error != nil {
		c.t.Fatalf("%s: error %d %s", method, m.Error.Code, m.Error.Message)
	}
	if v != nil {
		if err := json.Unmarshal(m.Result, v); err != nil {
			c.t.Fatalf("%s: %v: %s", method, err, m.Result)
		}
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// diagnostics waits for the diagnostics of uri at version.
func (c *client) diagnostics(uri string, version int32) []Diagnostic {
	c.t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case m := <-c.notes:
			if m.Method != "textDocument/publishDiagnostics" {
				continue
			}
			var p publishDiagnosticsParams
			if err := json.Unmarshal(m.Params, &p); err != nil {
				c.t.Fatal(err)
			}
			if p.URI == uri && p.Version != nil && *p.Version == version {
				return p.Diagnostics
			}
		case <-timeout:
			c.t.Fatalf("no diagnostics for %s version %d", uri, version)
		}
	}
}

func (c *client) initialize(encodings ...string) initializeResult {
	c.t.Helper()
	var res initializeResult
	caps := map[string]any{}
	if encodings != nil {
		caps["general"] = map[string]any{"positionEncodings": encodings}
	}
	c.result("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": caps}, &res)
	c.notify("initialized", map[string]any{})
	return res
}

func (c *client) open(uri, text string) {
	c.t.Helper()
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "robots-txt", "version": 1, "text": text}})
}

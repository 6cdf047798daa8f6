package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// The base protocol: each message is a header of "Name: value" lines, of
// which Content-Length is required, an empty line, and a JSON-RPC 2.0
// body of that many bytes (LSP 3.17, "Base Protocol").

// MaxMessage bounds the body of one message: a document of MaxDocument
// bytes fits in it even with a quarter of its bytes escaped in JSON.
const MaxMessage = 4 * MaxDocument

// maxHeaderLine and maxHeaderLines bound the header of a message.
const (
	maxHeaderLine  = 1024
	maxHeaderLines = 16
)

// JSON-RPC 2.0 and LSP error codes.
const (
	codeParseError           = -32700
	codeInvalidRequest       = -32600
	codeMethodNotFound       = -32601
	codeInvalidParams        = -32602
	codeInternalError        = -32603
	codeServerNotInitialized = -32002
	codeRequestFailed        = -32803
	codeRequestCancelled     = -32800
)

// message is any message a client sends: a request has an ID and a
// method, a notification a method only, a response an ID only.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
}

func (m *message) isRequest() bool { return len(m.ID) > 0 && m.Method != "" }

// rpcError is the error object of a response.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return e.Message }

// errTooLarge is a message whose body was longer than MaxMessage; it
// was read past, and the stream goes on.
type errTooLarge struct{ n int64 }

func (e errTooLarge) Error() string {
	return fmt.Sprintf("a message of %d bytes is over the limit of %d; it was ignored", e.n, MaxMessage)
}

// readMessage reads one message's body. An error other than errTooLarge
// ends the stream: the framing is lost.
func readMessage(r *bufio.Reader) ([]byte, error) {
	n := int64(-1)
	for i := 0; ; i++ {
		if i == maxHeaderLines {
			return nil, errors.New("a message header of more than 16 lines")
		}
		line, err := readLine(r)
		if err != nil {
			if err == io.EOF && i > 0 {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("a message header line without ':': %q", line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			v, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || v < 0 {
				return nil, fmt.Errorf("a Content-Length that is not a length: %q", value)
			}
			n = v
		}
	}
	if n < 0 {
		return nil, errors.New("a message without Content-Length")
	}
	if n > MaxMessage {
		if _, err := io.CopyN(io.Discard, r, n); err != nil {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, errTooLarge{n}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, io.ErrUnexpectedEOF
	}
	return body, nil
}

// readLine reads a header line, without its CRLF (or LF), of at most
// maxHeaderLine bytes.
func readLine(r *bufio.Reader) (string, error) {
	var b []byte
	for {
		chunk, err := r.ReadSlice('\n')
		b = append(b, chunk...)
		if len(b) > maxHeaderLine {
			return "", errors.New("a message header line longer than 1024 bytes")
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err != nil && len(b) == 0:
			return "", err
		case err != nil:
			return "", io.ErrUnexpectedEOF
		}
		return string(bytes.TrimRight(b, "\r\n")), nil
	}
}

// conn writes messages to the client, one at a time.
type conn struct {
	mu  sync.Mutex
	w   io.Writer
	err error // the first write error; later writes are dropped
}

func (c *conn) write(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return c.err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(body))
	b.Write(body)
	_, c.err = c.w.Write(b.Bytes())
	return c.err
}

// failed returns the error of the first write that failed, if any.
func (c *conn) failed() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// reply answers the request id with result, or with err when it is not
// nil (an *rpcError keeps its code; any other is a request failure).
func (c *conn) reply(id json.RawMessage, result any, err error) error {
	if err != nil {
		re, ok := err.(*rpcError)
		if !ok {
			re = &rpcError{Code: codeRequestFailed, Message: err.Error()}
		}
		return c.write(struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   *rpcError       `json:"error"`
		}{"2.0", id, re})
	}
	return c.write(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, result})
}

// notify sends a notification.
func (c *conn) notify(method string, params any) error {
	return c.write(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", method, params})
}

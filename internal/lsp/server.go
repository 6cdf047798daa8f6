package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/robotskit/robots/lint"
)

// MaxDocument is the largest document the server checks, in bytes: what
// robots check reads of a file (8 MiB, far past the 500 KiB robots read,
// so that RB122 can say by how much a file exceeds it).
const MaxDocument = 8 << 20

// maxDocuments bounds the documents open at once.
const maxDocuments = 1024

// DefaultDebounce is how long the server waits after a change before it
// checks the text.
const DefaultDebounce = 150 * time.Millisecond

// ErrNoShutdown is the error Serve returns when the stream ends, or the
// client sends exit, before a shutdown request.
var ErrNoShutdown = errors.New("the client ended the session without a shutdown request")

// Options configure Serve.
type Options struct {
	// Version is the server's version, sent in the initialize result.
	Version string
	// Debounce is the pause between the last change and the check;
	// 0 means DefaultDebounce.
	Debounce time.Duration
	// Config, when not nil, gives the checker's settings for a document
	// by its URI: robots lsp reads the .robots.toml that robots check
	// reads for the same file, so that the editor shows what the command
	// reports. Its error is shown as a diagnostic on the first line.
	Config func(uri string) (*lint.Config, error)
}

// Serve answers the client on r and w until it sends exit, or r ends. It
// returns nil after an exit that followed a shutdown request,
// ErrNoShutdown after an exit or the end of r without one, and the error
// of r or w when the stream breaks.
func Serve(ctx context.Context, r io.Reader, w io.Writer, opt *Options) error {
	if opt == nil {
		opt = &Options{}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &server{
		ctx:      ctx,
		out:      &conn{w: w},
		docs:     map[string]*document{},
		pending:  map[string]context.CancelFunc{},
		version:  opt.Version,
		debounce: opt.Debounce,
		config:   opt.Config,
	}
	if s.debounce <= 0 {
		s.debounce = DefaultDebounce
	}
	defer s.wait()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		body, err := readMessage(br)
		var big errTooLarge
		switch {
		case errors.As(err, &big):
			s.show(messageError, "robots lsp: "+big.Error())
			continue
		case err == io.EOF:
			if s.shutdown {
				return nil
			}
			return ErrNoShutdown
		case err != nil:
			return fmt.Errorf("reading a message: %w", err)
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil || m.JSONRPC != "2.0" {
			s.out.reply(json.RawMessage("null"), nil, &rpcError{Code: codeParseError, Message: "not a JSON-RPC 2.0 message"})
			continue
		}
		if m.Method == "exit" {
			if s.shutdown {
				return nil
			}
			return ErrNoShutdown
		}
		if err := s.dispatch(&m); err != nil {
			return err
		}
		if err := s.out.failed(); err != nil {
			return err
		}
	}
}

// server is one session's state. The read loop alone changes the
// documents' texts; the work of requests and checks runs in goroutines on
// a snapshot.
type server struct {
	ctx      context.Context
	out      *conn
	version  string
	debounce time.Duration
	config   func(uri string) (*lint.Config, error)
	enc      encoding

	initialized, shutdown bool

	mu      sync.Mutex // guards docs and pending
	docs    map[string]*document
	pending map[string]context.CancelFunc // requests under way, by ID
	wg      sync.WaitGroup

	publishMu sync.Mutex // orders the check of a run's currency and its publication
}

// document is an open text document.
type document struct {
	uri     string
	version int32
	text    string
	gen     uint64 // counts the texts, to tell a stale check
	timer   *time.Timer
	cancel  context.CancelFunc // of the pending or running check
	wg      *sync.WaitGroup    // the server's

	// cache holds what was computed for the current text.
	cache *analysis
}

// wait waits for the work under way, after cancelling it.
func (s *server) wait() {
	s.mu.Lock()
	for _, d := range s.docs {
		d.stop()
	}
	for _, c := range s.pending {
		c()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// stop cancels d's check; a timer stopped before it fires runs no
// function, so the wait group is told here.
func (d *document) stop() {
	if d.timer != nil && d.timer.Stop() {
		d.wg.Done()
	}
	d.timer = nil
	if d.cancel != nil {
		d.cancel()
	}
}

// show sends window/showMessage.
func (s *server) show(typ int, msg string) {
	s.out.notify("window/showMessage", showMessageParams{Type: typ, Message: msg})
}

// dispatch handles one message. Only an error of the stream ends the
// session.
func (s *server) dispatch(m *message) error {
	if !m.isRequest() {
		if m.Method != "" {
			s.notification(m)
		}
		return nil // a response: this server sends no requests
	}
	switch {
	case m.Method == "initialize":
		if s.initialized {
			return s.out.reply(m.ID, nil, &rpcError{Code: codeInvalidRequest, Message: "initialize was already sent"})
		}
		var p initializeParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			return s.out.reply(m.ID, nil, &rpcError{Code: codeInvalidParams, Message: err.Error()})
		}
		if slices.Contains(p.Capabilities.General.PositionEncodings, "utf-8") {
			s.enc = utf8Enc
		}
		s.initialized = true
		return s.out.reply(m.ID, s.capabilities(), nil)
	case !s.initialized:
		return s.out.reply(m.ID, nil, &rpcError{Code: codeServerNotInitialized, Message: "the server is not initialized"})
	case s.shutdown:
		return s.out.reply(m.ID, nil, &rpcError{Code: codeInvalidRequest, Message: "the server is shut down"})
	case m.Method == "shutdown":
		s.shutdown = true
		s.wait()
		return s.out.reply(m.ID, nil, nil)
	}
	handle, ok := handlers[m.Method]
	if !ok {
		return s.out.reply(m.ID, nil, &rpcError{Code: codeMethodNotFound, Message: "method not found: " + m.Method})
	}
	var uri struct {
		TextDocument textDocumentIdentifier `json:"textDocument"`
	}
	if err := json.Unmarshal(m.Params, &uri); err != nil {
		return s.out.reply(m.ID, nil, &rpcError{Code: codeInvalidParams, Message: err.Error()})
	}
	s.mu.Lock()
	d := s.docs[uri.TextDocument.URI]
	var snap *snapshot
	if d != nil {
		snap = &snapshot{uri: d.uri, text: d.text, enc: s.enc, doc: d, gen: d.gen}
	}
	ctx, cancel := context.WithCancel(s.ctx)
	key := string(m.ID)
	s.pending[key] = cancel
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer func() {
			s.mu.Lock()
			delete(s.pending, key)
			s.mu.Unlock()
			cancel()
		}()
		result, err := s.run(ctx, handle, snap, m.Params)
		if ctx.Err() != nil && err != nil {
			err = &rpcError{Code: codeRequestCancelled, Message: "the request was cancelled"}
		}
		s.out.reply(m.ID, result, err)
	}()
	return nil
}

// run calls handle, turning a panic into an internal error.
func (s *server) run(ctx context.Context, handle handler, snap *snapshot, params json.RawMessage) (result any, err error) {
	defer func() {
		if v := recover(); v != nil {
			// The editor shows the message to its user: the panic, not
			// the stack (a bug to report, not a trace to read).
			result, err = nil, &rpcError{Code: codeInternalError, Message: fmt.Sprintf("robots lsp: internal error: %v (please report it)", v)}
		}
	}()
	if snap == nil {
		return nil, &rpcError{Code: codeInvalidParams, Message: "the document is not open"}
	}
	if len(snap.text) > MaxDocument {
		return nil, fmt.Errorf("the document is larger than %d MiB, more than robots check reads", MaxDocument>>20)
	}
	return handle(ctx, s, snap, params)
}

func (s *server) capabilities() initializeResult {
	return initializeResult{
		Capabilities: serverCapabilities{
			PositionEncoding:           s.enc.String(),
			TextDocumentSync:           textDocumentSync{OpenClose: true, Change: 1},
			HoverProvider:              true,
			CompletionProvider:         completionOptions{TriggerCharacters: []string{":", " "}},
			CodeActionProvider:         codeActionOptions{CodeActionKinds: []string{kindQuickFix, kindFixAll}},
			DocumentFormattingProvider: true,
		},
		ServerInfo: serverInfo{Name: "robots", Version: s.version},
	}
}

// notification handles a notification; a bad one is ignored, as the
// protocol asks (no response may be sent).
func (s *server) notification(m *message) {
	if !s.initialized || s.shutdown {
		return
	}
	switch m.Method {
	case "textDocument/didOpen":
		var p didOpenParams
		if json.Unmarshal(m.Params, &p) != nil {
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if _, open := s.docs[p.TextDocument.URI]; !open && len(s.docs) >= maxDocuments {
			s.show(messageError, fmt.Sprintf("robots lsp: %d documents are open, the most it checks; close some", maxDocuments))
			return
		}
		d := s.docs[p.TextDocument.URI]
		if d == nil {
			d = &document{uri: p.TextDocument.URI, wg: &s.wg}
			s.docs[d.uri] = d
		}
		d.version, d.text = p.TextDocument.Version, p.TextDocument.Text
		s.schedule(d)
	case "textDocument/didChange":
		var p didChangeParams
		if json.Unmarshal(m.Params, &p) != nil || len(p.ContentChanges) == 0 {
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		d := s.docs[p.TextDocument.URI]
		if d == nil {
			return
		}
		text := d.text
		for _, c := range p.ContentChanges {
			if c.Range == nil {
				text = c.Text
				continue
			}
			// The server asks for whole texts; a client that sends a
			// range anyway is served all the same.
			x := newIndex(text, s.enc)
			start, end := x.offset(c.Range.Start), x.offset(c.Range.End)
			if end < start {
				start, end = end, start
			}
			text = text[:start] + c.Text + text[end:]
		}
		d.version, d.text = p.TextDocument.Version, text
		s.schedule(d)
	case "textDocument/didClose":
		var p didCloseParams
		if json.Unmarshal(m.Params, &p) != nil {
			return
		}
		s.mu.Lock()
		d := s.docs[p.TextDocument.URI]
		if d != nil {
			d.stop()
			delete(s.docs, d.uri)
		}
		s.mu.Unlock()
		if d != nil {
			s.publishMu.Lock()
			s.out.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: d.uri, Diagnostics: []Diagnostic{}})
			s.publishMu.Unlock()
		}
	case "$/cancelRequest":
		var p cancelParams
		if json.Unmarshal(m.Params, &p) != nil {
			return
		}
		s.mu.Lock()
		if c := s.pending[string(p.ID)]; c != nil {
			c()
		}
		s.mu.Unlock()
	}
}

// schedule checks d's text after the debounce pause, cancelling the check
// of its previous text. s.mu is held.
func (s *server) schedule(d *document) {
	d.stop()
	d.gen++
	d.cache = nil
	gen, version, text, uri := d.gen, d.version, d.text, d.uri
	ctx, cancel := context.WithCancel(s.ctx)
	d.cancel = cancel
	s.wg.Add(1)
	d.timer = time.AfterFunc(s.debounce, func() {
		defer s.wg.Done()
		s.diagnose(ctx, &snapshot{uri: uri, text: text, enc: s.enc, doc: d, gen: gen}, version)
	})
}

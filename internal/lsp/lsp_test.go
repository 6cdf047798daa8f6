package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"
	"time"
	u16 "unicode/utf16"

	"github.com/robotskit/robots/internal/textedit"
	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/syntax"
)

// problems is a robots.txt with findings of every kind the server maps:
// a proven fix (RB403, FX12; RB503, FX19), intent fixes, a finding after
// non-ASCII text on its line (RB313 at code point 16, UTF-16 unit 17,
// byte 22), a folded finding on two lines (RB212), and findings without
// a fix.
const problems = "User-agent: *\nDisallow: /a\n\nDisallow: /b\nAllow:\ndisalow: /x\n" +
	"Disallow: /é€😀 Disallow: /c\nDisallow: /é€😀/x\u00a0y\nDisallow: /😀/*\u200b\n" +
	"Disallow: admin/\nSitemap: /s.xml\n\nUser-agent: GPTBot\nDisallow /\n"

const uri = "file:///site/robots.txt"

// want is robots check's finding in the protocol's terms.
type want struct {
	Code      string
	Line, Col int // zero-based; Col in the encoding's units
	Related   []int
}

// expected converts the findings of robots check (lint.Run with the zero
// Config, folded) from their line and code point column, not from the
// byte offsets the server converts.
func expected(t *testing.T, src string, enc encoding) []want {
	t.Helper()
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var out []want
	for _, d := range lint.Fold(lint.Run(syntax.Parse("robots.txt", []byte(src)), nil)) {
		w := want{Code: d.Check.Code}
		if d.Line > 0 {
			w.Line = d.Line - 1
			prefix := string([]rune(lines[d.Line-1])[:d.Column-1])
			if enc == utf8Enc {
				w.Col = len(prefix)
			} else {
				w.Col = len(u16.Encode([]rune(prefix)))
			}
		}
		for _, l := range d.Lines[min(1, len(d.Lines)):] {
			w.Related = append(w.Related, l-1)
		}
		for _, r := range d.Related {
			w.Related = append(w.Related, r.Line-1)
		}
		out = append(out, w)
	}
	return out
}

func got(ds []Diagnostic) []want {
	var out []want
	for _, d := range ds {
		w := want{Code: d.Code, Line: d.Range.Start.Line, Col: d.Range.Start.Character}
		for _, r := range d.RelatedInformation {
			w.Related = append(w.Related, r.Location.Range.Start.Line)
		}
		out = append(out, w)
	}
	return out
}

func sameWants(t *testing.T, g, w []want) {
	t.Helper()
	if fmt.Sprint(g) != fmt.Sprint(w) {
		t.Errorf("diagnostics:\n got %v\nwant %v", g, w)
	}
}

// apply applies the protocol's edits to text.
func apply(t *testing.T, text string, enc encoding, edits []TextEdit) string {
	t.Helper()
	x := newIndex(text, enc)
	var es []textedit.Edit
	for _, e := range edits {
		es = append(es, textedit.Edit{Start: x.offset(e.Range.Start), End: x.offset(e.Range.End), New: e.NewText})
	}
	sort.Slice(es, func(i, j int) bool { return es[i].Start < es[j].Start })
	out, err := textedit.Apply(text, es)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSession(t *testing.T) {
	c, _, done := startServer(t)
	res := c.initialize()
	if res.Capabilities.PositionEncoding != "utf-16" {
		t.Errorf("positionEncoding %q without an offer, want utf-16", res.Capabilities.PositionEncoding)
	}
	if res.ServerInfo.Name != "robots" {
		t.Errorf("serverInfo %+v", res.ServerInfo)
	}
	c.open(uri, problems)
	ds := c.diagnostics(uri, 1)
	sameWants(t, got(ds), expected(t, problems, utf16))
	codes := map[string]Diagnostic{}
	for _, d := range ds {
		codes[d.Code] = d
		if d.Source != "robots" || d.CodeDescription == nil || !strings.HasPrefix(d.CodeDescription.Href, checksURL+strings.ToLower(d.Code)+"-") {
			t.Errorf("%s: source %q, codeDescription %+v", d.Code, d.Source, d.CodeDescription)
		}
	}
	if d := codes["RB313"]; d.Range.Start != (Position{Line: 6, Character: 16}) {
		t.Errorf("RB313 at %+v, want 6:16 in UTF-16 units", d.Range.Start)
	}
	if d := codes["RB403"]; d.Severity != severityError && d.Severity != severityWarning {
		t.Errorf("RB403 severity %d", d.Severity)
	}

	t.Run("codeAction", func(t *testing.T) {
		var acts []CodeAction
		c.result("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
			"range": Range{Start: Position{3, 0}, End: Position{5, 0}}, "context": map[string]any{"diagnostics": []any{}}}, &acts)
		titles := map[string]CodeAction{}
		for _, a := range acts {
			titles[a.Title] = a
		}
		fx12, ok := titles["Fix FX12: remove the blank lines inside the group"]
		if !ok || !fx12.IsPreferred || fx12.Kind != "quickfix" || fx12.Disabled != nil {
			t.Fatalf("no preferred quick fix FX12 in %+v", acts)
		}
		fx08, ok := titles["Fix FX08 (changes what robots do): write the canonical name"]
		if !ok || fx08.IsPreferred {
			t.Errorf("no intent fix FX08 titled as changing what robots do in %+v", acts)
		}
		all, ok := titles["Fix all: robots fix (what Google's and RFC 9309 robots read stays as it is)"]
		if !ok || all.Kind != "source.fixAll" {
			t.Fatalf("no fix-all action in %+v", acts)
		}
		fixed := lint.Fix([]byte(problems), &lint.FixOptions{})
		if out := apply(t, problems, utf16, all.Edit.Changes[uri]); out != string(fixed.Output) {
			t.Errorf("fix all gives\n%s\nrobots fix gives\n%s", out, fixed.Output)
		}
		// The one finding of a file, fixed by its quick fix, is what
		// robots fix makes of it.
		const one = "User-agent: *\nDisallow: /a\n\nDisallow: /b\n"
		c.open("file:///one/robots.txt", one)
		c.diagnostics("file:///one/robots.txt", 1)
		c.result("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": "file:///one/robots.txt"},
			"range": Range{Start: Position{2, 0}, End: Position{2, 0}}, "context": map[string]any{"diagnostics": []any{}, "only": []string{"quickfix"}}}, &acts)
		if len(acts) != 1 || !acts[0].IsPreferred {
			t.Fatalf("actions %+v, want one preferred quick fix", acts)
		}
		out := apply(t, one, utf16, acts[0].Edit.Changes["file:///one/robots.txt"])
		if want := lint.Fix([]byte(one), nil).Output; out != string(want) {
			t.Errorf("the quick fix gives %q, robots fix %q", out, want)
		}
	})

	t.Run("hover", func(t *testing.T) {
		var h Hover
		c.result("textDocument/hover", textDocumentPositionParams{TextDocument: textDocumentIdentifier{uri}, Position: Position{12, 3}}, &h)
		for _, s := range []string{"User-agent: GPTBot", "Robots whose group this is", "- rfc9309: GPTBot (open)"} {
			if !strings.Contains(h.Contents.Value, s) {
				t.Errorf("hover on User-agent: GPTBot lacks %q:\n%s", s, h.Contents.Value)
			}
		}
		c.result("textDocument/hover", textDocumentPositionParams{TextDocument: textDocumentIdentifier{uri}, Position: Position{5, 2}}, &h)
		for _, s := range []string{"- google: Disallow of `/x` (the key `disalow` read as Disallow)", "- rfc9309: ignored: the key `disalow` is not Disallow", "Obeyed by", "Googlebot"} {
			if !strings.Contains(h.Contents.Value, s) {
				t.Errorf("hover on disalow: /x lacks %q:\n%s", s, h.Contents.Value)
			}
		}
		if strings.Contains(h.Contents.Value, "GPTBot") {
			t.Errorf("hover on a line of the * group names GPTBot, which has a group of its own:\n%s", h.Contents.Value)
		}
		m := c.call("textDocument/hover", textDocumentPositionParams{TextDocument: textDocumentIdentifier{uri}, Position: Position{2, 0}})
		if string(m.Result) != "null" {
			t.Errorf("hover on a blank line: %s", m.Result)
		}
	})

	t.Run("completion", func(t *testing.T) {
		const doc = "User-agent: GP\nDis\n"
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": "file:///one/robots.txt", "version": 2},
			"contentChanges": []any{map[string]any{"text": doc}}})
		var list CompletionList
		c.result("textDocument/completion", textDocumentPositionParams{TextDocument: textDocumentIdentifier{"file:///one/robots.txt"}, Position: Position{0, 14}}, &list)
		var gpt *CompletionItem
		for i := range list.Items {
			if list.Items[i].Label == "GPTBot" {
				gpt = &list.Items[i]
			}
		}
		if gpt == nil || !strings.Contains(gpt.Detail, "OpenAI") {
			t.Fatalf("no GPTBot with its owner among %d items", len(list.Items))
		}
		if got := apply(t, doc, utf16, []TextEdit{*gpt.TextEdit}); got != "User-agent: GPTBot\nDis\n" {
			t.Errorf("completing GPTBot gives %q", got)
		}
		c.result("textDocument/completion", textDocumentPositionParams{TextDocument: textDocumentIdentifier{"file:///one/robots.txt"}, Position: Position{1, 3}}, &list)
		var names []string
		for _, it := range list.Items {
			names = append(names, it.Label)
			if it.Label == "Disallow" {
				if got := apply(t, doc, utf16, []TextEdit{*it.TextEdit}); got != "User-agent: GP\nDisallow: \n" {
					t.Errorf("completing Disallow gives %q", got)
				}
			}
		}
		for _, n := range []string{"User-agent", "Allow", "Disallow", "Sitemap", "Crawl-delay", "Content-Usage", "Content-Signal"} {
			if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+n+" ") {
				t.Errorf("directive completion lacks %s: %v", n, names)
			}
		}
	})

	t.Run("formatting", func(t *testing.T) {
		const messy = "# top\nuser-agent: a\ndisallow: /x\nUser-agent: *\nDisallow: /y\r\n\n\n\nSitemap: https://example.com/s.xml\nUser-agent: b\nAllow: /z\n"
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": "file:///one/robots.txt", "version": 3},
			"contentChanges": []any{map[string]any{"text": messy}}})
		var edits []TextEdit
		c.result("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": "file:///one/robots.txt"},
			"options": map[string]any{"tabSize": 4, "insertSpaces": true}}, &edits)
		want, err := lint.Format([]byte(messy))
		if err != nil {
			t.Fatal(err)
		}
		if got := apply(t, messy, utf16, edits); got != string(want) {
			t.Errorf("formatting gives\n%q\nrobots fmt gives\n%q", got, want)
		}
	})

	c.result("shutdown", nil, nil)
	c.notify("exit", nil)
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve after shutdown and exit: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after exit")
	}
}

// TestUTF8 checks the positions of a client that offers UTF-8.
func TestUTF8(t *testing.T) {
	c, _, _ := startServer(t)
	if res := c.initialize("utf-8", "utf-16"); res.Capabilities.PositionEncoding != "utf-8" {
		t.Fatalf("positionEncoding %q, want utf-8", res.Capabilities.PositionEncoding)
	}
	c.open(uri, problems)
	ds := c.diagnostics(uri, 1)
	sameWants(t, got(ds), expected(t, problems, utf8Enc))
	for _, d := range ds {
		if d.Code == "RB313" && d.Range.Start.Character != len("Disallow: /é€😀 ") {
			t.Errorf("RB313 at byte column %d", d.Range.Start.Character)
		}
	}
}

// TestStale checks that a change cancels the check of the text before
// it: only the last version's diagnostics are published.
func TestStale(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go Serve(context.Background(), inR, outW, &Options{Debounce: 300 * time.Millisecond})
	c := newClient(t, outR, inW)
	defer inW.Close()
	c.initialize()
	c.open(uri, "User-agent: *\nDisallow: a\n")
	for v := 2; v <= 4; v++ {
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": v},
			"contentChanges": []any{map[string]any{"text": fmt.Sprintf("User-agent: *\nDisallow: a%d\n", v)}}})
	}
	ds := c.diagnostics(uri, 4)
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "a4") {
		t.Errorf("version 4: %+v", ds)
	}
	select {
	case m := <-c.notes:
		t.Errorf("after the last version: %s %s", m.Method, m.Params)
	case <-time.After(500 * time.Millisecond):
	}
}

// TestErrors checks the answers to requests the server cannot serve: it
// answers each, and goes on.
func TestErrors(t *testing.T) {
	c, w, done := startServer(t)
	if m := c.call("textDocument/hover", map[string]any{}); m.Error == nil || m.Error.Code != codeServerNotInitialized {
		t.Errorf("a request before initialize: %+v", m)
	}
	c.initialize()
	if m := c.call("textDocument/definition", map[string]any{}); m.Error == nil || m.Error.Code != codeMethodNotFound {
		t.Errorf("an unknown method: %+v", m)
	}
	if m := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///none"}, "position": Position{}}); m.Error == nil {
		t.Errorf("hover on a document that is not open: %+v", m)
	}
	// A panic in a handler is that request's error.
	handlers["test/panic"] = func(context.Context, *server, *snapshot, json.RawMessage) (any, error) { panic("boom") }
	defer delete(handlers, "test/panic")
	c.open(uri, "User-agent: *\n")
	if m := c.call("test/panic", map[string]any{"textDocument": map[string]any{"uri": uri}}); m.Error == nil || m.Error.Code != codeInternalError || !strings.Contains(m.Error.Message, "boom") {
		t.Errorf("a panicking handler: %+v", m)
	}
	// Not JSON: a parse error with a null id, and the session goes on.
	fmt.Fprintf(w.(io.Writer), "Content-Length: 5\r\n\r\n{oops")
	if m := <-c.notes; m.Error == nil || m.Error.Code != codeParseError {
		t.Errorf("not JSON: %+v", m)
	}
	if m := c.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": uri}}); m.Error != nil {
		t.Errorf("formatting after a bad message: %+v", m.Error)
	}
	// The stream ends without shutdown.
	w.Close()
	if err := <-done; err != ErrNoShutdown {
		t.Errorf("Serve at the end of input without shutdown: %v", err)
	}
}

// TestTooLarge checks that a message over MaxMessage is read past.
func TestTooLarge(t *testing.T) {
	n := MaxMessage + 1
	r := bufio.NewReader(io.MultiReader(strings.NewReader(fmt.Sprintf("Content-Length: %d\r\n\r\n", n)),
		io.LimitReader(zeros{}, int64(n)), strings.NewReader("Content-Length: 2\r\n\r\n{}")))
	if _, err := readMessage(r); err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Fatalf("a message over the limit: %v", err)
	}
	if body, err := readMessage(r); err != nil || string(body) != "{}" {
		t.Fatalf("the message after it: %q, %v", body, err)
	}
	for _, bad := range []string{"Content-Type: x\r\n\r\n{}", "Content-Length: -1\r\n\r\n", strings.Repeat("X", 2000) + "\r\n"} {
		if _, err := readMessage(bufio.NewReader(strings.NewReader(bad))); err == nil {
			t.Errorf("%.40q: no error", bad)
		}
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestPositions checks the conversions between byte offsets and
// positions over line ends of every kind and characters of 1 to 4 bytes.
func TestPositions(t *testing.T) {
	const text = "a\r\né😀b\rc\n€\n"
	x16, x8 := newIndex(text, utf16), newIndex(text, utf8Enc)
	for _, tc := range []struct {
		off     int
		p16, p8 Position
	}{
		{0, Position{0, 0}, Position{0, 0}},
		{1, Position{0, 1}, Position{0, 1}},
		{2, Position{0, 1}, Position{0, 1}}, // inside CRLF
		{3, Position{1, 0}, Position{1, 0}},
		{5, Position{1, 1}, Position{1, 2}},  // after é
		{9, Position{1, 3}, Position{1, 6}},  // after 😀
		{10, Position{1, 4}, Position{1, 7}}, // after b
		{11, Position{2, 0}, Position{2, 0}},
		{13, Position{3, 0}, Position{3, 0}},
		{16, Position{3, 1}, Position{3, 3}},
		{17, Position{4, 0}, Position{4, 0}},
	} {
		if p := x16.position(tc.off); p != tc.p16 {
			t.Errorf("utf-16 position(%d) = %v, want %v", tc.off, p, tc.p16)
		}
		if p := x8.position(tc.off); p != tc.p8 {
			t.Errorf("utf-8 position(%d) = %v, want %v", tc.off, p, tc.p8)
		}
		if tc.off != 2 {
			if o := x16.offset(tc.p16); o != tc.off {
				t.Errorf("utf-16 offset(%v) = %d, want %d", tc.p16, o, tc.off)
			}
			if o := x8.offset(tc.p8); o != tc.off {
				t.Errorf("utf-8 offset(%v) = %d, want %d", tc.p8, o, tc.off)
			}
		}
	}
	// Inside a surrogate pair or a UTF-8 sequence: the character's start;
	// past a line's end: the line's end.
	if o := x16.offset(Position{1, 2}); o != 5 {
		t.Errorf("utf-16 offset inside 😀 = %d", o)
	}
	if o := x8.offset(Position{1, 4}); o != 5 {
		t.Errorf("utf-8 offset inside 😀 = %d", o)
	}
	if o := x16.offset(Position{0, 99}); o != 1 {
		t.Errorf("offset past the end of line 0 = %d", o)
	}
	if o := x16.offset(Position{99, 0}); o != len(text) {
		t.Errorf("offset past the last line = %d", o)
	}
}

// TestReplace checks the one edit that turns a text into another.
func TestReplace(t *testing.T) {
	for _, tc := range [][2]string{
		{"a\nb\nc\n", "a\nB\nc\n"},
		{"a\r\nb\r\n", "a\nb\n"},
		{"a\nb", "a\nb\n"},
		{"", "x\n"},
		{"x\n", ""},
		{"same\n", "same\n"},
		{"é😀\nb\n", "é😀\nc\n"},
	} {
		for _, enc := range []encoding{utf16, utf8Enc} {
			x := newIndex(tc[0], enc)
			e := x.replace(tc[1])
			if got := apply(t, tc[0], enc, []TextEdit{e}); got != tc[1] {
				t.Errorf("%q → %q (%v): the edit %+v gives %q", tc[0], tc[1], enc, e, got)
			}
		}
	}
}

// TestLargeDocument checks that a text past the 500 KiB robots read is
// diagnosed as robots check diagnoses it (RB122 and the lines past the
// cut), and that one past MaxDocument is refused with a message.
func TestLargeDocument(t *testing.T) {
	c, _, _ := startServer(t)
	c.initialize()
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; b.Len() < 520<<10; i++ {
		fmt.Fprintf(&b, "Disallow: /p%d/\n", i)
	}
	b.WriteString("Disallow: admin/\n")
	big := b.String()
	c.open(uri, big)
	ds := c.diagnostics(uri, 1)
	sameWants(t, got(ds), expected(t, big, utf16))
	codes := ""
	for _, d := range ds {
		codes += d.Code + " "
	}
	if !strings.Contains(codes, "RB122") {
		t.Errorf("a file over 500 KiB: %s", codes)
	}
	var h Hover
	c.result("textDocument/hover", textDocumentPositionParams{TextDocument: textDocumentIdentifier{uri}, Position: Position{strings.Count(big, "\n") - 1, 0}}, &h)
	if !strings.Contains(h.Contents.Value, "past the first 500 KiB") {
		t.Errorf("hover on a line past 500 KiB:\n%s", h.Contents.Value)
	}

	huge := strings.Repeat("# x\n", MaxDocument/4+1)
	c.open("file:///huge/robots.txt", huge)
	shown := false
	for !shown {
		select {
		case m := <-c.notes:
			shown = m.Method == "window/showMessage" && strings.Contains(string(m.Params), "larger than 8 MiB")
		case <-time.After(10 * time.Second):
			t.Fatal("no message about the document over MaxDocument")
		}
	}
	if ds := c.diagnostics("file:///huge/robots.txt", 1); len(ds) != 0 {
		t.Errorf("a document over MaxDocument: %d diagnostics", len(ds))
	}
	if m := c.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": "file:///huge/robots.txt"}}); m.Error == nil {
		t.Error("formatting a document over MaxDocument: no error")
	}
}

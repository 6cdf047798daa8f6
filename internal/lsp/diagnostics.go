package lsp

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"strings"
	"sync"

	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/syntax"
)

// checksURL is where each check's documentation is: docs/checks.md,
// whose headings "RBnnn name" GitHub anchors as "#rbnnn-name".
const checksURL = "https://github.com/robotskit/robots/blob/main/docs/checks.md#"

// snapshot is a document's text at the time a request or a check began.
type snapshot struct {
	uri  string
	text string
	enc  encoding
	doc  *document
	gen  uint64
}

// analysis is what the checker found in one text: robots check's
// findings, and the text's positions.
type analysis struct {
	file  *syntax.File
	x     *lineIndex
	ds    []lint.Diagnostic // folded, as robots check reports them
	diags []Diagnostic      // ds for the client, in the same order

	readOnce sync.Once
	rd       *readers // the text as each profile reads it, made on first use
}

// analyze checks snap's text as robots check does (the zero lint.Config:
// the default checks, the findings that affect a major family, folded),
// or returns the analysis of that text already made.
func (s *server) analyze(ctx context.Context, snap *snapshot) (*analysis, error) {
	s.mu.Lock()
	if snap.doc.gen == snap.gen && snap.doc.cache != nil {
		a := snap.doc.cache
		s.mu.Unlock()
		return a, nil
	}
	s.mu.Unlock()
	f := syntax.Parse(fileName(snap.uri), []byte(snap.text))
	cfg, cfgErr := &lint.Config{}, error(nil)
	if s.config != nil {
		if c, err := s.config(snap.uri); err != nil {
			cfgErr = err
		} else if c != nil {
			cfg = c
		}
	}
	ds, err := lint.RunContext(ctx, f, cfg)
	if err != nil {
		return nil, err
	}
	a := &analysis{file: f, x: newIndex(snap.text, snap.enc), ds: lint.Fold(ds)}
	for i := range a.ds {
		a.diags = append(a.diags, a.diagnostic(snap.uri, &a.ds[i]))
	}
	if cfgErr != nil {
		// The settings could not be read: the default checks, and the
		// reason on the first line, where robots check would refuse to
		// run. It comes last, after the diagnostics of a.ds.
		a.diags = append(a.diags, Diagnostic{Severity: 1, Code: "config", Source: "robots", Message: cfgErr.Error()})
	}
	if a.diags == nil {
		a.diags = []Diagnostic{}
	}
	s.mu.Lock()
	if snap.doc.gen == snap.gen {
		snap.doc.cache = a
	}
	s.mu.Unlock()
	return a, nil
}

// fileName is the last element of a document's URI, for the positions
// that the checker's messages may name.
func fileName(uri string) string {
	if u, err := url.Parse(uri); err == nil && u.Path != "" {
		return path.Base(u.Path)
	}
	return "robots.txt"
}

// diagnostic converts one finding. It starts at the finding's column and
// runs to the end of its line; a finding of the whole file is at the
// start of the file.
func (a *analysis) diagnostic(uri string, d *lint.Diagnostic) Diagnostic {
	out := Diagnostic{
		Severity:        severity(d.Severity()),
		Code:            d.Check.Code,
		CodeDescription: &codeDescription{Href: checksURL + strings.ToLower(d.Check.Code) + "-" + d.Check.Name},
		Source:          "robots",
		Message:         d.Message,
	}
	if d.Line > 0 && d.Offset >= 0 {
		start := a.x.position(d.Offset)
		r := a.x.lineRange(start.Line)
		r.Start = start
		if r.End.Character < start.Character {
			r.End = start
		}
		out.Range = r
	}
	for _, l := range d.Lines {
		if l != d.Line {
			out.RelatedInformation = append(out.RelatedInformation, diagnosticRelatedInformation{
				Location: Location{URI: uri, Range: a.x.lineRange(l - 1)},
				Message:  fmt.Sprintf("%s %s: the same problem, on line %d", d.Check.Code, d.Check.Name, l),
			})
		}
	}
	for _, r := range d.Related {
		if r.Line > 0 {
			out.RelatedInformation = append(out.RelatedInformation, diagnosticRelatedInformation{
				Location: Location{URI: uri, Range: a.x.lineRange(r.Line - 1)},
				Message:  r.Note,
			})
		}
	}
	return out
}

func severity(s lint.Severity) int {
	switch s {
	case lint.Error:
		return severityError
	case lint.Warning:
		return severityWarning
	}
	return severityInformation
}

// diagnose checks snap's text and publishes the findings, unless a newer
// text has come meanwhile.
func (s *server) diagnose(ctx context.Context, snap *snapshot, version int32) {
	defer func() {
		if v := recover(); v != nil {
			s.out.notify("window/logMessage", showMessageParams{Type: messageError, Message: fmt.Sprintf("robots lsp: internal error checking %s: %v", snap.uri, v)})
		}
	}()
	if ctx.Err() != nil {
		return
	}
	diags := []Diagnostic{}
	if len(snap.text) > MaxDocument {
		s.show(messageWarning, fmt.Sprintf("robots lsp: %s is larger than %d MiB, more than robots check reads; robots read only its first 500 KiB", fileName(snap.uri), MaxDocument>>20))
	} else {
		a, err := s.analyze(ctx, snap)
		if err != nil {
			return
		}
		diags = a.diags
	}
	s.publishMu.Lock()
	defer s.publishMu.Unlock()
	s.mu.Lock()
	current := s.docs[snap.uri] == snap.doc && snap.doc.gen == snap.gen
	s.mu.Unlock()
	if !current || ctx.Err() != nil {
		return
	}
	s.out.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: snap.uri, Version: &version, Diagnostics: diags})
}

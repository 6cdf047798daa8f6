package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/internal/textedit"
	"github.com/robotskit/robots/lint"
)

// Code action kinds.
const (
	kindQuickFix = "quickfix"
	kindFixAll   = "source.fixAll"
)

// handler answers one request on a snapshot of its document.
type handler func(ctx context.Context, s *server, snap *snapshot, params json.RawMessage) (any, error)

var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		"textDocument/codeAction": codeActions,
		"textDocument/formatting": formatting,
		"textDocument/hover":      hover,
		"textDocument/completion": completion,
	}
}

// codeActions offers, for each finding in the range that has a fix, the
// fixer's edit, and "Fix all", robots fix's output, when it changes the
// text.
func codeActions(ctx context.Context, s *server, snap *snapshot, params json.RawMessage) (any, error) {
	var p codeActionParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &rpcError{Code: codeInvalidParams, Message: err.Error()}
	}
	a, err := s.analyze(ctx, snap)
	if err != nil {
		return nil, err
	}
	actions := []CodeAction{}
	fixable := false
	for i := range a.ds {
		d := &a.ds[i]
		if d.Fix == nil || len(d.Fix.Edits) == 0 {
			continue
		}
		fixable = true
		if !wants(p.Context.Only, kindQuickFix) || !a.touches(d, p.Range) {
			continue
		}
		act, err := a.quickFix(ctx, snap, d, a.diags[i])
		if err != nil {
			return nil, err
		}
		actions = append(actions, act)
	}
	if fixable && wants(p.Context.Only, kindFixAll) {
		res, err := lint.FixContext(ctx, []byte(snap.text), &lint.FixOptions{})
		if err != nil {
			return nil, err
		}
		if out := string(res.Output); out != snap.text {
			actions = append(actions, CodeAction{
				Title: "Fix all: robots fix (what Google's and RFC 9309 robots read stays as it is)",
				Kind:  kindFixAll,
				Edit:  &WorkspaceEdit{Changes: map[string][]TextEdit{snap.uri: {a.x.replace(out)}}},
			})
		}
	}
	return actions, nil
}

// wants reports whether a code action of kind is asked for: only lists
// the kinds the client wants, a kind standing for its sub-kinds too;
// none means every kind.
func wants(only []string, kind string) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if kind == o || strings.HasPrefix(kind, o+".") {
			return true
		}
	}
	return false
}

// touches reports whether d, at any of its lines or its edits, meets the
// lines of r.
func (a *analysis) touches(d *lint.Diagnostic, r Range) bool {
	in := func(line int) bool { return line >= r.Start.Line && line <= r.End.Line }
	if in(d.Line - 1) {
		return true
	}
	for _, l := range d.Lines {
		if in(l - 1) {
			return true
		}
	}
	for _, e := range d.Fix.Edits {
		if in(a.x.position(e.Start).Line) || in(a.x.position(e.End).Line) {
			return true
		}
	}
	return false
}

// quickFix is the code action of d's fix. A fix that keeps what robots
// read is proven as robots fix proves it (change.Equivalent: every
// verdict of Google's and RFC 9309 robots stays) and preferred, unless
// it is a layout fix for first-match robots, which robots fix applies
// only with -robots all; a fix the proof refuses is shown disabled, with
// why. An intent fix says in its title that it changes what robots do.
func (a *analysis) quickFix(ctx context.Context, snap *snapshot, d *lint.Diagnostic, diag Diagnostic) (CodeAction, error) {
	f := d.Fix
	act := CodeAction{
		Title:       fmt.Sprintf("Fix %s: %s", f.ID, f.Message),
		Kind:        kindQuickFix,
		Diagnostics: []Diagnostic{diag},
	}
	edits := make([]textedit.Edit, len(f.Edits))
	lsp := make([]TextEdit, len(f.Edits))
	for i, e := range f.Edits {
		edits[i] = textedit.Edit(e)
		lsp[i] = TextEdit{Range: a.x.rangeOf(e.Start, e.End), NewText: e.New}
	}
	out, err := textedit.Apply(snap.text, edits)
	if err != nil {
		return act, fmt.Errorf("the edits of %s do not apply: %v", f.ID, err)
	}
	act.Edit = &WorkspaceEdit{Changes: map[string][]TextEdit{snap.uri: lsp}}
	if f.Class == lint.Intent {
		act.Title = fmt.Sprintf("Fix %s (changes what robots do): %s", f.ID, f.Message)
		return act, nil
	}
	if crossesCut(snap.text, f.Edits) {
		act.Disabled = &disabledReason{Reason: fmt.Sprintf("robots fix keeps this line: %s", lint.CutReason)}
		return act, nil
	}
	diff, err := change.EquivalentContext(ctx, []byte(snap.text), []byte(out))
	if err != nil {
		return act, err
	}
	switch {
	case diff != nil:
		act.Disabled = &disabledReason{Reason: fmt.Sprintf("robots fix keeps this line: the fix would change %s's verdict for %s under %v",
			diff.Agent, diff.URL, diff.Profile)}
	case lint.LayoutFix(d):
		act.Title = fmt.Sprintf("Fix %s (layout for first-match robots): %s", f.ID, f.Message)
	default:
		act.IsPreferred = true
	}
	return act, nil
}

// crossesCut reports whether edits would move lines into or out of the
// first 500 KiB of a longer text, the part robots read: an edit before
// that point that changes the length.
func crossesCut(src string, edits []lint.Edit) bool {
	if len(src) <= robots.MaxBytes {
		return false
	}
	delta := 0
	for _, e := range edits {
		if e.Start < robots.MaxBytes {
			delta += len(e.New) - (e.End - e.Start)
		}
	}
	return delta != 0
}

// formatting is robots fmt: the canonical layout of lint.Format.
func formatting(ctx context.Context, s *server, snap *snapshot, params json.RawMessage) (any, error) {
	out, err := lint.Format([]byte(snap.text))
	if err != nil {
		return nil, err
	}
	if string(out) == snap.text {
		return []TextEdit{}, nil
	}
	return []TextEdit{newIndex(snap.text, snap.enc).replace(string(out))}, nil
}

// replace returns the edit that turns the index's text into out: the
// whole lines between the lines both share at their start and at their
// end.
func (x *lineIndex) replace(out string) TextEdit {
	old := x.text
	p := 0
	for p < len(old) && p < len(out) && old[p] == out[p] {
		p++
	}
	// Back to the start of the line of the first difference.
	start := x.starts[x.position(p).Line]
	q := 0
	for q < len(old)-start && q < len(out)-start && old[len(old)-1-q] == out[len(out)-1-q] {
		q++
	}
	// Forward to the start of a line of the old text.
	end := len(old) - q
	if end < len(old) {
		k := x.position(end).Line
		if x.starts[k] != end {
			if k+1 < len(x.starts) {
				end = x.starts[k+1]
			} else {
				end = len(old)
			}
		}
	}
	// A CRLF split in two is not a line start: keep it whole.
	if end > 0 && end < len(old) && old[end-1] == '\r' && old[end] == '\n' {
		end++
	}
	newEnd := len(out) - (len(old) - end)
	return TextEdit{Range: x.rangeOf(start, end), NewText: out[start:newEnd]}
}

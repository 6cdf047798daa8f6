package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/syntax"
)

// completion offers, at the start of a line, the directives that package
// syntax knows (syntax.Field, the module's one list of them), and after
// "User-agent:" the robots of the registry.
func completion(ctx context.Context, s *server, snap *snapshot, params json.RawMessage) (any, error) {
	var p textDocumentPositionParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &rpcError{Code: codeInvalidParams, Message: err.Error()}
	}
	x := newIndex(snap.text, snap.enc)
	list := CompletionList{Items: []CompletionItem{}}
	if p.Position.Line >= len(x.starts) {
		return list, nil
	}
	start, end := x.starts[p.Position.Line], x.lineEnd(p.Position.Line)
	cur := x.offset(p.Position)
	line, before := snap.text[start:end], snap.text[start:cur]
	if strings.Contains(before, "#") {
		return list, nil
	}
	key, _, hasColon := strings.Cut(before, ":")
	if !hasColon {
		word := strings.TrimLeft(before, " \t")
		if strings.TrimLeft(word, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_") != "" {
			return list, nil
		}
		from := cur - len(word)
		to, suffix := cur, ": "
		if i := strings.IndexByte(line[cur-start:], ':'); i >= 0 {
			to, suffix = cur+i, "" // the line has its colon: replace the key
		}
		r := x.rangeOf(from, to)
		for f := syntax.Field(1); f.String() != ""; f++ {
			name := f.String()
			list.Items = append(list.Items, CompletionItem{
				Label:      name,
				Kind:       kindKeyword,
				Detail:     "robots.txt directive",
				FilterText: name,
				SortText:   fmt.Sprintf("%02d", f),
				TextEdit:   &TextEdit{Range: r, NewText: name + suffix},
			})
		}
		return list, nil
	}
	// After the key: robots, when the key is User-agent (in any spelling
	// that package syntax reads as User-agent).
	f := syntax.Parse("", []byte(key+": x"))
	if len(f.Lines) != 1 || f.Lines[0].Field != syntax.UserAgent {
		return list, nil
	}
	value := before[len(key)+1:]
	typed := strings.TrimLeft(value, " \t")
	if strings.ContainsAny(typed, " \t") {
		return list, nil // past the value's first word
	}
	from := cur - len(typed)
	to := cur
	for to < end && isTokenByte(snap.text[to]) {
		to++
	}
	lead := ""
	if value == "" {
		lead = " " // right after the colon
	}
	r := x.rangeOf(from, to)
	list.Items = append(list.Items, CompletionItem{
		Label:    "*",
		Kind:     kindValue,
		Detail:   "every robot that no other group names",
		SortText: "0",
		TextEdit: &TextEdit{Range: r, NewText: lead + "*"},
	})
	for _, rb := range agents.All() {
		item := CompletionItem{
			Label:         rb.Token,
			Kind:          kindValue,
			Detail:        fmt.Sprintf("%s · %s", rb.Owner, rb.Purpose),
			Documentation: &markupContent{Kind: "markdown", Value: robotDoc(rb)},
			FilterText:    rb.Token,
			SortText:      "1" + strings.ToLower(rb.Token),
			TextEdit:      &TextEdit{Range: r, NewText: lead + rb.Token},
		}
		if rb.Retired {
			item.Tags = []int{completionDeprecated}
			item.SortText = "2" + strings.ToLower(rb.Token)
		}
		list.Items = append(list.Items, item)
	}
	return list, nil
}

// isTokenByte reports whether c may stand in a User-agent value's first
// word.
func isTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
}

// robotDoc is a registry robot's entry, in a few lines of Markdown.
func robotDoc(rb agents.Robot) string {
	var b strings.Builder
	name := rb.Name
	if name == "" {
		name = rb.Token
	}
	fmt.Fprintf(&b, "**%s** — %s, %s; reads robots.txt as %s", name, rb.Owner, rb.Purpose, rb.Profile)
	if len(rb.Fallback) > 0 {
		fmt.Fprintf(&b, ", falls back to %s", strings.Join(rb.Fallback, ", "))
	}
	if rb.IgnoresGlobal {
		b.WriteString(", ignores the `*` group")
	}
	b.WriteString(".")
	if rb.Retired {
		b.WriteString("\n\nRetired")
		if rb.Successor != "" {
			b.WriteString(": name " + rb.Successor + " instead")
		}
		b.WriteString(".")
	}
	if rb.Notes != "" {
		b.WriteString("\n\n" + rb.Notes)
	}
	if rb.Doc != "" {
		b.WriteString("\n\n" + rb.Doc)
	}
	return b.String()
}

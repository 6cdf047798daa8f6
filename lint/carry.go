package lint

import (
	"context"
	"sort"
	"strings"

	"github.com/robotskit/robots/syntax"
)

// carryComments returns fx with its edits changed so that the comment
// lines right above a line the fix moves go with it, as the comment above
// a line in Format does: fx itself when the fix moves no line or no
// comment stands above the lines it moves. A fix moves lines when it
// deletes whole lines and inserts one of them elsewhere (FX15, FX31, FX33,
// FX35, FX36), or when it replaces a run of lines with the same lines in
// another order (FX18, FX30). The comments at the top of the file, above
// its first line that is not a comment or blank, stay there. A trailing
// comment is part of its line and moves with it anyway.
//
// A fix with many edits costs a look at the others for each: when ctx ends
// carryComments stops and returns fx (FixContext then stops too).
func carryComments(ctx context.Context, f *syntax.File, fx *SuggestedFix) *SuggestedFix {
	var edits []Edit
	lines := f.Lines
	src := f.String()
	for i, e := range fx.Edits {
		if i%64 == 63 && ctx.Err() != nil {
			return fx
		}
		if e.End <= e.Start {
			continue
		}
		// k: the first line that starts inside the edit.
		k := sort.Search(len(lines), func(n int) bool { return lines[n].Span.Start.Offset >= e.Start })
		if k == len(lines) || lines[k].Span.Start.Offset >= e.End {
			continue
		}
		c := k
		for c > 0 && lines[c-1].Kind == syntax.CommentLine {
			c--
		}
		if c == k || !carrySignificantBefore(lines, c) {
			continue
		}
		to := lines[k].Span.Start.Offset
		// The last line of a file without a terminator is deleted from
		// the end of the line above, whose terminator it takes.
		prevEnd := e.Start != to
		if prevEnd && e.Start != lines[k-1].Span.End.Offset {
			continue
		}
		// Where the deletion now ends a blank line or the file follows:
		// the blank lines above the comments go too, so that none is
		// doubled or left at the end.
		if e.New == "" {
			after := sort.Search(len(lines), func(n int) bool { return lines[n].Span.Start.Offset >= e.End })
			if after == len(lines) || lines[after].Kind == syntax.BlankLine {
				for c > 1 && lines[c-1].Kind == syntax.BlankLine {
					c--
				}
			}
		}
		from := lines[c].Span.Start.Offset
		if prevEnd {
			from = lines[c-1].Span.End.Offset
		}
		view := edits // the edits as changed so far
		if view == nil {
			view = fx.Edits
		}
		if carryTouched(view, i, from, to) {
			continue
		}
		own := func() {
			if edits == nil {
				edits = append([]Edit(nil), fx.Edits...)
			}
		}
		comments := make([]string, 0, k-c)
		for n := c; n < k; n++ {
			comments = append(comments, src[lines[n].Span.Start.Offset:lines[n].Span.End.Offset])
		}
		old := src[e.Start:e.End]
		if e.New != "" {
			// A run of lines put in another order.
			if !carrySameLines(old, e.New) {
				continue
			}
			first := src[lines[k].Span.Start.Offset:lines[k].Span.End.Offset]
			if strings.TrimSpace(first) == "" {
				continue
			}
			if nw, ok := carryInsert(e.New, first, comments); ok {
				own()
				edits[i] = Edit{Start: from, End: e.End, New: nw}
			}
			continue
		}
		// Deleted lines, one of which an insertion of the fix writes
		// elsewhere: the first of them that it writes takes the comments.
		for j := range view {
			ins := view[j]
			if j == i || ins.Start != ins.End || ins.New == "" {
				continue
			}
			done := false
			for n := k; n < len(lines) && lines[n].Span.Start.Offset < e.End && !done; n++ {
				if lines[n].Kind == syntax.BlankLine || lines[n].Kind == syntax.CommentLine {
					continue
				}
				text := src[lines[n].Span.Start.Offset:lines[n].Span.End.Offset]
				if nw, ok := carryInsert(ins.New, text, comments); ok {
					own()
					view = edits
					edits[j].New = nw
					edits[i].Start = from
					done = true
				}
			}
			if done {
				break
			}
		}
	}
	if edits == nil {
		return fx
	}
	out := *fx
	out.Edits = edits
	return &out
}

// carrySignificantBefore reports whether a line before line c is neither
// blank nor a comment: the comments above c are not the file's header.
func carrySignificantBefore(lines []syntax.Line, c int) bool {
	for n := c - 1; n >= 0; n-- {
		if k := lines[n].Kind; k != syntax.BlankLine && k != syntax.CommentLine {
			return true
		}
	}
	return false
}

// carryTouched reports whether an edit other than edits[skip] touches the
// bytes [from, to).
func carryTouched(edits []Edit, skip, from, to int) bool {
	for j, e := range edits {
		if j != skip && e.Start < to && e.End > from {
			return true
		}
		if j != skip && e.Start == e.End && e.Start > from && e.Start < to {
			return true
		}
	}
	return false
}

// carrySplit splits s into lines without their terminators (LF, CRLF or
// CR), and returns the first terminator found, LF when there is none.
func carrySplit(s string) (lines []string, eol string) {
	eol = ""
	for s != "" {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i])
		n := 1
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			n = 2
		}
		if eol == "" {
			eol = s[i : i+n]
		}
		s = s[i+n:]
	}
	if eol == "" {
		eol = "\n"
	}
	return lines, eol
}

// carrySameLines reports whether a and b hold the same lines, in any
// order and with any terminators, white space at their ends aside.
func carrySameLines(a, b string) bool {
	x, _ := carrySplit(a)
	y, _ := carrySplit(b)
	if len(x) != len(y) {
		return false
	}
	count := map[string]int{}
	for _, l := range x {
		count[strings.TrimSpace(l)]++
	}
	for _, l := range y {
		t := strings.TrimSpace(l)
		if count[t] == 0 {
			return false
		}
		count[t]--
	}
	return true
}

// carryInsert returns text with the lines comments put before its first
// line that reads as line (white space at the ends aside), each ended by
// text's terminator; false when text has no such line.
func carryInsert(text, line string, comments []string) (string, bool) {
	want := strings.TrimSpace(line)
	_, eol := carrySplit(text)
	at := 0
	for at <= len(text) {
		end := strings.IndexAny(text[at:], "\r\n")
		if end < 0 {
			end = len(text) - at
		}
		if strings.TrimSpace(text[at:at+end]) == want {
			block := strings.Join(comments, eol) + eol
			return text[:at] + block + text[at:], true
		}
		at += end
		if at == len(text) {
			break
		}
		if text[at] == '\r' && at+1 < len(text) && text[at+1] == '\n' {
			at++
		}
		at++
	}
	return "", false
}

package syntax_test

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/robotskit/robots/internal/lines"
	"github.com/robotskit/robots/syntax"
)

// FuzzParsePrint checks that Parse loses no byte, that every span is where
// the documentation puts it, and that the line scanner of package lines,
// which the root package's compiler reads with, agrees with Parse.
func FuzzParsePrint(f *testing.F) {
	for _, in := range allInputs() {
		// Long lines are checked by the unit tests; as seeds they make the
		// fuzzer spend its time minimising 16 KiB inputs.
		if len(in) <= 512 {
			f.Add([]byte(in))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		orig := bytes.Clone(src)
		p := syntax.Parse("", src)
		checkFile(t, orig, p)
		compareScanner(t, string(orig), p)
		compareParseLine(t, p)
	})
}

// allInputs returns every input of the table tests, for seeding the fuzzer
// and for the round-trip tests.
func allInputs() []string {
	var ins []string
	for _, tt := range parseTests {
		ins = append(ins, tt.inputs...)
	}
	return append(ins, trickyInputs...)
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == '\n'
}

// checkFile checks the invariants of a parsed file against its source.
func checkFile(t *testing.T, src []byte, f *syntax.File) {
	t.Helper()
	if got := f.Bytes(); !bytes.Equal(got, src) {
		t.Fatalf("Bytes() = %q, want the input %q", got, src)
	}
	if f.String() != string(src) {
		t.Fatalf("String() = %q, want the input %q", f.String(), src)
	}
	// The BOM is the longest prefix of EF BB BF that starts the input.
	bom := 0
	for bom < 3 && bom < len(src) && src[bom] == "\xEF\xBB\xBF"[bom] {
		bom++
	}
	if f.BOM != string(src[:bom]) {
		t.Fatalf("BOM = %q, want %q", f.BOM, src[:bom])
	}
	off := bom
	for i := range f.Lines {
		l := &f.Lines[i]
		n := i + 1
		where := func() string { return "line " + itoa(n) + " " + dumpLine(f, l) }
		lineStart := l.Span.Start.Offset
		if n == 1 {
			lineStart = bom
		}
		// checkPos checks p is a position on this line, inside [lo, hi].
		checkPos := func(what string, p syntax.Pos, lo, hi int) {
			// No t.Helper here: it is called for every span of every
			// line, and t.Helper is costly under the fuzzer.
			if int(p.Line) != n || p.Offset < lo || p.Offset > hi || int(p.Col) != p.Offset-lineStart+1 {
				t.Fatalf("%s: %s = %+v, want line %d, offset in [%d, %d], col offset-%d+1", where(), what, p, n, lo, hi, lineStart)
			}
		}
		if l.Span.Start.Offset != off {
			t.Fatalf("%s: starts at %d, want %d (right after the previous terminator)", where(), l.Span.Start.Offset, off)
		}
		checkPos("Span.Start", l.Span.Start, off, len(src))
		checkPos("Span.End", l.Span.End, off, len(src))
		if l.Span.Start.Col != 1 {
			t.Fatalf("%s: starts at column %d, want 1", where(), l.Span.Start.Col)
		}
		start, end := l.Span.Start.Offset, l.Span.End.Offset
		if end < start {
			t.Fatalf("%s: span ends before it starts", where())
		}
		text := src[start:end]
		if bytes.ContainsAny(text, "\r\n") {
			t.Fatalf("%s: text %q holds a line terminator", where(), text)
		}
		switch l.EOL {
		case 0:
			if end != len(src) {
				t.Fatalf("%s: EOL 0 but the line ends at %d of %d", where(), end, len(src))
			}
		case 1:
			if end >= len(src) || src[end] != '\n' && src[end] != '\r' || src[end] == '\r' && end+1 < len(src) && src[end+1] == '\n' {
				t.Fatalf("%s: EOL 1 but the terminator is %q", where(), src[end:min(end+2, len(src))])
			}
		case 2:
			if end+2 > len(src) || string(src[end:end+2]) != "\r\n" {
				t.Fatalf("%s: EOL 2 but the terminator is %q", where(), src[end:min(end+2, len(src))])
			}
		default:
			t.Fatalf("%s: EOL = %d", where(), l.EOL)
		}
		off = end + l.EOL

		// The part that is read: at most MaxLineLen bytes, up to a NUL.
		read := len(text)
		if got, want := l.Flags&syntax.TooLong != 0, len(text) > syntax.MaxLineLen; got != want {
			t.Fatalf("%s: TooLong = %v, want %v (line of %d bytes)", where(), got, want, len(text))
		}
		read = min(read, syntax.MaxLineLen)
		nul := bytes.IndexByte(text[:read], 0)
		if got, want := l.Flags&syntax.NUL != 0, nul >= 0; got != want {
			t.Fatalf("%s: NUL = %v, want %v", where(), got, want)
		}
		if nul >= 0 {
			read = nul
		}
		if got, want := l.Flags&syntax.InvalidUTF8 != 0, !utf8.Valid(text); got != want {
			t.Fatalf("%s: InvalidUTF8 = %v, want %v", where(), got, want)
		}

		// Comment: from the first '#' of the read part to its end.
		hash := bytes.IndexByte(text[:read], '#')
		body := read
		if hash >= 0 {
			body = hash
			if !l.Comment.IsValid() {
				t.Fatalf("%s: '#' at line byte %d but no comment", where(), hash)
			}
			checkPos("Comment.Start", l.Comment.Start, start+hash, start+hash)
			checkPos("Comment.End", l.Comment.End, start+read, start+read)
		} else if l.Comment.IsValid() {
			t.Fatalf("%s: comment %s but no '#'", where(), spanString(l.Comment))
		}
		trimmed := strings.TrimFunc(string(text[:body]), func(r rune) bool { return r < 0x80 && isSpace(byte(r)) })

		// Kind and flags.
		invalid := l.Flags&(syntax.NoSeparator|syntax.EmptyKey) != 0
		if invalid != (l.Kind == syntax.InvalidLine) {
			t.Fatalf("%s: kind %v with flags %v", where(), l.Kind, flagNames(l.Flags))
		}
		if l.Flags&(syntax.Lenient|syntax.MissingColon) != 0 && l.Kind != syntax.DirectiveLine {
			t.Fatalf("%s: directive flags on a %v line", where(), l.Kind)
		}
		switch l.Kind {
		case syntax.BlankLine, syntax.CommentLine:
			if trimmed != "" {
				t.Fatalf("%s: %v line holds %q", where(), l.Kind, trimmed)
			}
			if l.Comment.IsValid() != (l.Kind == syntax.CommentLine) {
				t.Fatalf("%s: %v line, comment %s", where(), l.Kind, spanString(l.Comment))
			}
		case syntax.DirectiveLine, syntax.InvalidLine:
			if trimmed == "" {
				t.Fatalf("%s: %v line with no text", where(), l.Kind)
			}
		default:
			t.Fatalf("%s: kind %v", where(), l.Kind)
		}
		if l.Kind != syntax.DirectiveLine {
			if l.Key.IsValid() || l.Value.IsValid() || l.Field != syntax.Unknown {
				t.Fatalf("%s: key %s value %s field %v on a %v line", where(), spanString(l.Key), spanString(l.Value), l.Field, l.Kind)
			}
			continue
		}
		if !l.Key.IsValid() || !l.Value.IsValid() {
			t.Fatalf("%s: directive without key or value", where())
		}
		checkPos("Key.Start", l.Key.Start, start, start+body)
		checkPos("Key.End", l.Key.End, l.Key.Start.Offset+1, start+body)
		checkPos("Value.Start", l.Value.Start, l.Key.End.Offset, start+body)
		checkPos("Value.End", l.Value.End, l.Value.Start.Offset, start+body)
		key, value := f.Text(l.Key), f.Text(l.Value)
		if isSpace(key[0]) || isSpace(key[len(key)-1]) {
			t.Fatalf("%s: key %q not trimmed", where(), key)
		}
		if value != "" && (isSpace(value[0]) || isSpace(value[len(value)-1])) {
			t.Fatalf("%s: value %q not trimmed", where(), value)
		}
		if !strings.HasPrefix(trimmed, key) || !strings.HasSuffix(trimmed, value) {
			t.Fatalf("%s: key %q, value %q do not start/end the line's text %q", where(), key, value, trimmed)
		}
		sep := string(src[l.Key.End.Offset:l.Value.Start.Offset])
		if l.Flags&syntax.MissingColon != 0 {
			if strings.Contains(trimmed, ":") || strings.ContainsAny(key, " \t") || strings.ContainsAny(value, " \t") ||
				strings.Trim(sep, " \t\v\f") != "" || !strings.ContainsAny(sep, " \t") {
				t.Fatalf("%s: missing-colon directive with key %q, separator %q, value %q", where(), key, sep, value)
			}
		} else if strings.Contains(key, ":") || strings.Count(sep, ":") != 1 || strings.Trim(sep, ": \t\v\f") != "" {
			t.Fatalf("%s: key %q, separator %q", where(), key, sep)
		}
		exact := lines.LookupField(key)
		if l.Flags&syntax.Lenient != 0 {
			if exact != syntax.Unknown || l.Field == syntax.Unknown || l.Field > syntax.Sitemap {
				t.Fatalf("%s: lenient field %v for key %q (exact %v)", where(), l.Field, key, exact)
			}
		} else if l.Field != exact {
			t.Fatalf("%s: field %v for key %q, want %v", where(), l.Field, key, exact)
		}
	}
	if off != len(src) && len(f.Lines) > 0 || len(f.Lines) == 0 && bom != len(src) {
		t.Fatalf("lines end at %d, input has %d bytes", off, len(src))
	}
}

// scanned returns l as package lines reads it: its offsets, kind, field,
// flags and terminator.
func scanned(l syntax.Line) lines.Line {
	r := func(s syntax.Span) lines.Range {
		if !s.IsValid() {
			return lines.Range{}
		}
		return lines.Range{Start: s.Start.Offset, End: s.End.Offset}
	}
	return lines.Line{Kind: l.Kind, Field: l.Field, Flags: l.Flags, EOL: l.EOL,
		Span: r(l.Span), Key: r(l.Key), Value: r(l.Value), Comment: r(l.Comment)}
}

// compareScanner checks that the Scanner of package lines yields the lines
// of f, without InvalidUTF8.
func compareScanner(t *testing.T, src string, f *syntax.File) {
	t.Helper()
	var s lines.Scanner
	if bom := s.Init(src); bom != f.BOM {
		t.Fatalf("Scanner.Init(%q) = %q, Parse BOM = %q", src, bom, f.BOM)
	}
	var l lines.Line
	i := 0
	for ; s.Scan(&l); i++ {
		if i >= len(f.Lines) {
			t.Fatalf("Scanner(%q): more than Parse's %d lines", src, len(f.Lines))
		}
		if l.Flags&lines.InvalidUTF8 != 0 {
			t.Fatalf("Scanner(%q) line %d: InvalidUTF8 set", src, i+1)
		}
		want := scanned(f.Lines[i])
		want.Flags &^= lines.InvalidUTF8
		if l != want {
			t.Fatalf("Scanner(%q) line %d:\ngot  %+v\nwant %+v", src, i+1, l, want)
		}
	}
	if i != len(f.Lines) {
		t.Fatalf("Scanner(%q): %d lines, Parse: %d", src, i, len(f.Lines))
	}
	if s.Scan(&l) {
		t.Fatalf("Scanner(%q): Scan true after the end", src)
	}
}

// compareParseLine checks that package lines' ParseLine reads each line of
// f as Parse did, with offsets relative to the line.
func compareParseLine(t *testing.T, f *syntax.File) {
	t.Helper()
	for i, l := range f.Lines {
		text := f.Text(l.Span)
		got := lines.ParseLine(text)
		// Parse's offsets, moved to the line.
		want := scanned(l)
		start := want.Span.Start
		move := func(r *lines.Range) {
			r.Start -= start
			r.End -= start
		}
		move(&want.Span)
		if want.Kind == lines.DirectiveLine {
			move(&want.Key)
			move(&want.Value)
		}
		if want.HasComment() {
			move(&want.Comment)
		}
		want.EOL = 0
		if got != want {
			t.Fatalf("ParseLine(%q), line %d of its file:\ngot  %+v\nwant %+v", text, i+1, got, want)
		}
		if got2 := lines.ParseLine(text + "\r\nUser-agent: x"); got2 != got {
			t.Fatalf("ParseLine(%q) with a terminator and a next line: %+v, want %+v", text, got2, got)
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

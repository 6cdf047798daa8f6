package syntax

import (
	"testing"

	"github.com/robotskit/robots/internal/lines"
)

// TestLinesNumbering holds package lines, which reads the lines Parse turns
// into nodes, to this package's numbering of kinds, fields and flags: Parse
// and the root package's compiler convert them by number.
func TestLinesNumbering(t *testing.T) {
	kinds := map[LineKind]lines.Kind{
		BlankLine: lines.BlankLine, CommentLine: lines.CommentLine,
		DirectiveLine: lines.DirectiveLine, InvalidLine: lines.InvalidLine,
	}
	for k, lk := range kinds {
		if LineKind(lk) != k {
			t.Errorf("lines' %d is syntax's %v", lk, k)
		}
	}
	fields := []lines.Field{
		lines.Unknown, lines.UserAgent, lines.Allow, lines.Disallow, lines.Sitemap,
		lines.CrawlDelay, lines.RequestRate, lines.VisitTime, lines.Host,
		lines.CleanParam, lines.RobotVersion, lines.Comment,
	}
	if len(fields) != int(numFields) || lines.NumFields != lines.Field(numFields) {
		t.Fatalf("%d fields here, %d in lines", numFields, lines.NumFields)
	}
	for i, lf := range fields {
		if f := Field(i); Field(lf) != f || lf.String() != f.String() {
			t.Errorf("lines' field %d (%q) is syntax's %d (%q)", lf, lf, f, f)
		}
	}
	flags := map[Flags]lines.Flags{
		Lenient: lines.Lenient, MissingColon: lines.MissingColon, TooLong: lines.TooLong,
		NUL: lines.NUL, InvalidUTF8: lines.InvalidUTF8, NoSeparator: lines.NoSeparator,
		EmptyKey: lines.EmptyKey,
	}
	for f, lf := range flags {
		if Flags(lf) != f {
			t.Errorf("lines' flag %#x is syntax's %#x", lf, f)
		}
	}
	if MaxLineLen != lines.MaxLen {
		t.Errorf("MaxLineLen %d, lines.MaxLen %d", MaxLineLen, lines.MaxLen)
	}
}

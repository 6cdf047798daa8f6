package robots

import (
	"strings"
	"unsafe"

	"github.com/robotskit/robots/syntax"
)

// MaxBytes is how much of a robots.txt body a robot reads: Google reads
// 500 KiB and ignores what follows ("How Google interprets the robots.txt
// specification", file size limit), and RFC 9309 §2.5 asks every
// crawler to parse at least that much. Parse and Compile interpret all the
// bytes they are given, as the reference library does; whoever reads a body
// from a file or the network stops at MaxBytes (the fetcher and the command
// do), which also bounds the memory a hostile file can take.
const MaxBytes = 500 << 10

// Parse reads a robots.txt body as profile p reads it and compiles it into
// rules. It never fails: lines a profile does not honour are ignored, as
// that robot ignores them (the lint package reports them). Parse copies what
// it keeps of src; the rules hold no reference to it.
func Parse(src []byte, p Profile) *Rules {
	b := newBuilder(p)
	defer b.release()
	b.read(unsafe.String(unsafe.SliceData(src), len(src))) // read only during Parse
	r := b.finish()
	// A value ends at a '#' or NUL, so no pattern holds one.
	r.openPath = b.sem.openPath()
	return r
}

// Compile compiles a parsed file as profile p reads it. For the same input,
// Compile(syntax.Parse(name, src), p) and Parse(src, p) make the same rules.
// A nil f is an empty file: Compile(nil, p) returns the rules of profile p
// that allow everything, as Parse(nil, p) does.
func Compile(f *syntax.File, p Profile) *Rules {
	if f == nil {
		f = &syntax.File{}
	}
	text := f.String()
	b := newBuilder(p)
	defer b.release()
	for i := range f.Lines {
		l := &f.Lines[i]
		b.line(text, l, int32(l.Span.Start.Line))
	}
	r := b.finish()
	// Lines edited by hand may give a value that holds a '#' or a NUL.
	r.openPath = b.sem.openPath() && !strings.ContainsAny(b.tail(0), "#\x00")
	return r
}

package syntax

import "unicode/utf8"

// Parse reads a robots.txt body. It never fails: every line becomes a node,
// and lines that are not directives become [InvalidLine] nodes. name is used
// only in positions shown to people. Parse copies src.
func Parse(name string, src []byte) *File {
	f := &File{Name: name, src: string(src)}
	var s Scanner
	f.BOM = s.Init(f.src)
	var l Line
	for s.Scan(&l) {
		if !utf8.ValidString(f.Text(l.Span)) {
			l.Flags |= InvalidUTF8
		}
		f.Lines = append(f.Lines, l)
	}
	return f
}

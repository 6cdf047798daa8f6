package lsp

import (
	"sort"
	"unicode/utf8"
)

// encoding is the unit of Position.Character (LSP 3.17
// PositionEncodingKind).
type encoding uint8

const (
	utf16 encoding = iota // the protocol's default
	utf8Enc
)

func (e encoding) String() string {
	if e == utf8Enc {
		return "utf-8"
	}
	return "utf-16"
}

// lineIndex maps byte offsets of a text to positions and back. Lines end
// at LF, CRLF or CR, as both package syntax and the protocol end them.
type lineIndex struct {
	text   string
	starts []int // byte offset of each line's start
	enc    encoding
}

func newIndex(text string, enc encoding) *lineIndex {
	x := &lineIndex{text: text, starts: []int{0}, enc: enc}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			x.starts = append(x.starts, i+1)
		case '\n':
			x.starts = append(x.starts, i+1)
		}
	}
	return x
}

// lineEnd returns the offset of the end of line i's text, before its line
// end.
func (x *lineIndex) lineEnd(i int) int {
	if i+1 >= len(x.starts) {
		return len(x.text)
	}
	end := x.starts[i+1]
	if end > 0 && x.text[end-1] == '\n' {
		end--
	}
	if end > x.starts[i] && x.text[end-1] == '\r' {
		end--
	}
	return end
}

// position returns the position of byte offset off, clamped to the text;
// an offset inside a character counts from that character's start.
func (x *lineIndex) position(off int) Position {
	off = max(0, min(off, len(x.text)))
	line := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
	start := x.starts[line]
	if end := x.lineEnd(line); off > end {
		off = end // inside a CRLF: the end of the line's text
	}
	return Position{Line: line, Character: x.units(x.text[start:off])}
}

// units counts s in the encoding's units. Invalid UTF-8 (which a JSON
// text cannot hold) counts one unit a byte.
func (x *lineIndex) units(s string) int {
	if x.enc == utf8Enc {
		return len(s)
	}
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++ // a surrogate pair
		}
	}
	return n
}

// offset returns the byte offset of p: a line past the end is the end of
// the text, a character past the end of its line the line's end, and a
// character inside a multi-unit code point that code point's start.
func (x *lineIndex) offset(p Position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(x.starts) {
		return len(x.text)
	}
	start, end := x.starts[p.Line], x.lineEnd(p.Line)
	if x.enc == utf8Enc {
		off := start + max(0, min(p.Character, end-start))
		for off > start && off < end && !utf8.RuneStart(x.text[off]) {
			off--
		}
		return off
	}
	n := 0
	for i, r := range x.text[start:end] {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if n+w > p.Character {
			return start + i
		}
		n += w
	}
	return end
}

// rangeOf returns the range of bytes [start, end).
func (x *lineIndex) rangeOf(start, end int) Range {
	return Range{Start: x.position(start), End: x.position(end)}
}

// lineRange is the range of line i's text (0-based), without its line
// end.
func (x *lineIndex) lineRange(i int) Range {
	if i < 0 || i >= len(x.starts) {
		return Range{}
	}
	return x.rangeOf(x.starts[i], x.lineEnd(i))
}

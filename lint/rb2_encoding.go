package lint

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// The encodings of the format checks (RB2xx): how the checker tells UTF-16/32
// (RB202), binary bodies (RB204) and legacy 8-bit text (RB203) apart, and
// how the intent fix FX02 transcodes them. golang.org/x/text supplies the
// decoders: its tables cover every charset a Content-Type may declare
// (RB121), which hand-written tables would not.

// formatWideDecode returns src decoded from the wide encoding enc (a name
// sniff.Wide returns) as UTF-8, without its byte-order mark; ok is false
// when it cannot be decoded.
func formatWideDecode(src, enc string) (string, bool) {
	var e encoding.Encoding
	switch enc {
	case "UTF-16LE":
		e = unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)
	case "UTF-16BE":
		e = unicode.UTF16(unicode.BigEndian, unicode.UseBOM)
	case "UTF-32LE":
		e = utf32.UTF32(utf32.LittleEndian, utf32.UseBOM)
	case "UTF-32BE":
		e = utf32.UTF32(utf32.BigEndian, utf32.UseBOM)
	default:
		return "", false
	}
	out, err := e.NewDecoder().String(src)
	if err != nil || !utf8.ValidString(out) {
		return "", false
	}
	return out, true
}

// formatGuess guesses the legacy encoding of the bytes of src that are not
// valid UTF-8 (RB203), with a decoder for it when it is a
// single-byte one; "" when every byte is valid. The heuristic: text in a
// non-Latin script writes whole words in high bytes, Latin text has
// isolated accented letters. Among the words, letters of windows-1251
// (lower case E0–FF) and KOI8-R (lower case C0–DF) fill C0–FF almost
// alone, and most letters of running text are lower case; East Asian
// double-byte encodings spread over A1–FE.
func formatGuess(src string) (string, *charmap.Charmap) {
	n, inRun, lo, hi := 0, 0, 0, 0
	prevBad := false
	prevCounted := false
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRuneInString(src[i:])
		bad := r == utf8.RuneError && size == 1
		if bad {
			b := src[i]
			n++
			switch {
			case b >= 0xE0:
				hi++
			case b >= 0xC0:
				lo++
			}
			if prevBad {
				inRun++
				if !prevCounted {
					inRun++ // the first byte of the run
				}
				prevCounted = true
			} else {
				prevCounted = false
			}
		}
		prevBad = bad
		i += size
	}
	switch {
	case n == 0:
		return "", nil
	case inRun*2 < n:
		return "windows-1252", charmap.Windows1252
	case (lo+hi)*10 < n*9:
		return "an East Asian multi-byte encoding (Shift_JIS, GBK, EUC)", nil
	case hi >= lo:
		return "windows-1251", charmap.Windows1251
	default:
		return "KOI8-R", charmap.KOI8R
	}
}

// formatTranscode returns s with every byte that is not valid UTF-8
// decoded with the single-byte charset cm; valid UTF-8 is kept, so a line
// that mixes both is not garbled.
func formatTranscode(s string, cm *charmap.Charmap) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/2)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			r = cm.DecodeByte(s[i])
		}
		b.WriteRune(r)
		i += size
	}
	return b.String()
}

// formatDeclaredFix returns the FX02 edit that transcodes src from the
// charset cs a Content-Type declares (RB121), or nil when
// there is nothing to do: src is valid UTF-8 already (a wrong header on a
// right file), or cs is unknown or does not decode src.
func formatDeclaredFix(src, cs string) *Edit {
	if utf8.ValidString(src) {
		return nil
	}
	e, err := htmlindex.Get(cs)
	if err != nil {
		return nil
	}
	var out string
	if cm, ok := e.(*charmap.Charmap); ok {
		out = formatTranscode(src, cm)
	} else {
		out, err = e.NewDecoder().String(src)
		if err != nil || !utf8.ValidString(out) {
			return nil
		}
	}
	if out == src {
		return nil
	}
	return &Edit{Start: 0, End: len(src), New: out}
}

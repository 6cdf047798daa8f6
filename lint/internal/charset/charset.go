// Package charset tells the encodings of a robots.txt body apart and
// transcodes them to UTF-8, for the checks of the file (RB2xx) and of
// its Content-Type (RB121): UTF-16/32 (RB202), legacy 8-bit text whose
// encoding it guesses (RB203), and the charset a Content-Type declares.
// golang.org/x/text supplies the decoders: its tables cover every charset
// a Content-Type may declare, which hand-written tables would not.
package charset

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// DecodeWide returns src decoded from the wide encoding enc (a name
// sniff.Wide returns) as UTF-8, without its byte-order mark; ok is false
// when it cannot be decoded.
func DecodeWide(src, enc string) (string, bool) {
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

// Guess guesses the legacy encoding of the bytes of src that are not
// valid UTF-8 (RB203), with a decoder for it when it is a single-byte
// one; "" when every byte is valid. The heuristic: text in a non-Latin
// script writes whole words in high bytes, Latin text has isolated
// accented letters. Among the words, letters of windows-1251 (lower case
// E0–FF) and KOI8-R (lower case C0–DF) fill C0–FF almost alone, and most
// letters of running text are lower case; East Asian double-byte
// encodings spread over A1–FE.
func Guess(src string) (string, *charmap.Charmap) {
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

// Transcode returns s with every byte that is not valid UTF-8 decoded
// with the single-byte charset cm; valid UTF-8 is kept, so a line that
// mixes both is not garbled.
func Transcode(s string, cm *charmap.Charmap) string {
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

// FromDeclared returns src transcoded from the charset cs a Content-Type
// declares (RB121), and false when there is nothing to do: src is valid
// UTF-8 already (a wrong header on a right file), or cs is unknown or
// does not decode src, or decoding changes nothing.
func FromDeclared(src, cs string) (string, bool) {
	if utf8.ValidString(src) {
		return "", false
	}
	e, err := htmlindex.Get(cs)
	if err != nil {
		return "", false
	}
	var out string
	if cm, ok := e.(*charmap.Charmap); ok {
		out = Transcode(src, cm)
	} else {
		out, err = e.NewDecoder().String(src)
		if err != nil || !utf8.ValidString(out) {
			return "", false
		}
	}
	if out == src {
		return "", false
	}
	return out, true
}

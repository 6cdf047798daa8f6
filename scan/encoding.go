package scan

import (
	"strings"
	"unicode/utf8"

	"github.com/robotskit/robots/internal/sniff"
)

// The values of Row.Encoding. RFC 9309 §2.2 makes a robots.txt UTF-8;
// Google reads every other byte sequence as UTF-8 too, so a file in
// another encoding is read as whatever its bytes spell in UTF-8 (a UTF-16
// file as no rules at all). The column says which files are at risk.
const (
	// EncodingUTF8 is a body that is valid UTF-8 (RFC 3629), ASCII
	// included.
	EncodingUTF8 = "utf-8"
	// EncodingUTF16LE, EncodingUTF16BE, EncodingUTF32LE and
	// EncodingUTF32BE are text in a wide encoding, by its byte order mark
	// or by the pattern of its NUL bytes (internal/sniff.Wide).
	EncodingUTF16LE = "utf-16le"
	EncodingUTF16BE = "utf-16be"
	EncodingUTF32LE = "utf-32le"
	EncodingUTF32BE = "utf-32be"
	// EncodingBinary is a body that is no text: a gzip stream, an image,
	// a PDF, NUL bytes or control characters (internal/sniff.Binary).
	EncodingBinary = "binary"
	// EncodingOther is text that is not valid UTF-8: a legacy encoding
	// such as windows-1252, windows-1251 or Shift_JIS.
	EncodingOther = "other"
)

// boms are the byte order marks, longest first (the UTF-32LE mark starts
// with the UTF-16LE one): Unicode 15, §23.8.
var boms = [...]string{"\xFF\xFE\x00\x00", "\x00\x00\xFE\xFF", "\xEF\xBB\xBF", "\xFF\xFE", "\xFE\xFF"}

// encodingOf returns the Row.Encoding of body and whether it starts with
// a byte order mark.
func encodingOf(body []byte) (enc string, bom bool) {
	if len(body) == 0 {
		return "", false
	}
	for _, m := range boms {
		if len(body) >= len(m) && string(body[:len(m)]) == m {
			bom = true
			break
		}
	}
	if w := sniff.Wide(body); w != "" {
		return strings.ToLower(w), bom
	}
	if utf8.Valid(body) {
		if sniff.Binary(body) != "" {
			return EncodingBinary, bom
		}
		return EncodingUTF8, bom
	}
	if sniff.Binary(body) != "" {
		return EncodingBinary, bom
	}
	return EncodingOther, bom
}

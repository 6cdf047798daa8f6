package charset

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/robotskit/robots/lint/internal/testenv"
)

// TestGuess holds the legacy-encoding guess of RB203 to its documented
// heuristic.
func TestGuess(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"Disallow: /\xea\xe0\xf2\xe0\xeb\xee\xe3\n", "windows-1251"},         // каталог
		{"Disallow: /\xca\xe0\xf2\xe0\xeb\xee\xe3\n", "windows-1251"},         // Каталог
		{"Disallow: /\xcb\xc1\xd4\xc1\xcc\xcf\xc7\n", "KOI8-R"},               // каталог
		{"Disallow: /caf\xe9\nDisallow: /na\xefve\n", "windows-1252"},         // café, naïve
		{"Disallow: /\x93\xfa\x96\x7b\x8c\xea/\x82\xa0\x82\xa2\n", "an East"}, // 日本語/あい in Shift_JIS
		{"Disallow: /ok\n", ""},
	} {
		got, _ := Guess(tt.src)
		if !strings.HasPrefix(got, tt.want) || tt.want == "" && got != "" {
			t.Errorf("Guess(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestCorpus guesses the encoding of every file of the -corpus folder:
// none for UTF-8, and a single-byte guess transcodes the file to UTF-8.
func TestCorpus(t *testing.T) {
	names, srcs := testenv.Corpus(t)
	for i, name := range names {
		src := string(srcs[i])
		guess, cm := Guess(src)
		switch {
		case utf8.ValidString(src) && guess != "":
			t.Errorf("%s: UTF-8 read as %s", name, guess)
		case !utf8.ValidString(src) && guess == "":
			t.Errorf("%s: not UTF-8, and no guess", name)
		case cm != nil && !utf8.ValidString(Transcode(src, cm)):
			t.Errorf("%s: transcoded from %s, not UTF-8", name, guess)
		}
	}
}

package lint

import (
	"strings"
	"testing"

	"github.com/robotskit/robots/syntax"
)

// rb122Diags returns the RB122 diagnostics of src read with cfg.
func rb122Diags(src string, cfg *Config) []Diagnostic {
	var out []Diagnostic
	for _, d := range Run(syntax.Parse("", []byte(src)), cfg) {
		if d.Check == rb122 {
			out = append(out, d)
		}
	}
	return out
}

// TestRB122 covers the 500 KiB limit, whose bodies are too large for a
// golden file: the line that holds byte 512,001 is reported, a body
// without line breaks is reported at line 0, a fetch that read less than
// it was sent is judged by Size, and 512,000 bytes are fine.
func TestRB122(t *testing.T) {
	line := "Disallow: /" + strings.Repeat("a", 88) + "\n" // 100 bytes
	body := "User-agent: *\n" + strings.Repeat(line, 5200) // 520,014 bytes
	ds := rb122Diags(body, nil)
	// Byte 512,001 is at offset 512,000: 14 bytes of User-agent, then
	// 5,119 full lines end at 511,914, so it is on line 5,121.
	if len(ds) != 1 || ds[0].Line != 5121 || ds[0].Column != 1 {
		t.Fatalf("RB122 on a long body: %v", ds)
	}
	if want := "robots.txt is 520,014 bytes; content after 500 KiB is ignored by Google"; ds[0].Message != want {
		t.Errorf("message %q, want %q", ds[0].Message, want)
	}

	flat := "Disallow: /" + strings.Repeat("a", fetchMaxBody)
	if ds := rb122Diags(flat, nil); len(ds) != 1 || ds[0].Line != 0 {
		t.Errorf("RB122 on a body without line breaks: %v", ds)
	}

	exact := "User-agent: *\nDisallow: /" + strings.Repeat("a", fetchMaxBody-26) + "\n"
	if len(exact) != fetchMaxBody {
		t.Fatalf("exact body is %d bytes", len(exact))
	}
	if ds := rb122Diags(exact, nil); len(ds) != 0 {
		t.Errorf("RB122 on exactly 512,000 bytes: %v", ds)
	}

	small := "User-agent: *\nDisallow: /x\n"
	cut := &Config{Fetch: &Fetch{Hops: []Hop{{URL: "https://example.com/robots.txt", Status: 200}}, ContentType: "text/plain", Size: 900000}}
	if ds := rb122Diags(small, cut); len(ds) != 1 || ds[0].Line != 0 || !strings.Contains(ds[0].Message, "900,000 bytes") {
		t.Errorf("RB122 on a fetch cut short: %v", ds)
	}
	gone := &Config{Fetch: &Fetch{Hops: []Hop{{URL: "https://example.com/robots.txt", Status: 404}}, Size: 900000}}
	if ds := rb122Diags(small, gone); len(ds) != 0 {
		t.Errorf("RB122 on a 404: %v", ds)
	}
}

// TestFormatWide holds formatWide to the patterns of RB202 and keeps it
// away from text and from binary data.
func TestFormatWide(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"\xFF\xFEU\x00", "UTF-16LE"},
		{"\xFE\xFF\x00U", "UTF-16BE"},
		{"\xFF\xFE\x00\x00U\x00\x00\x00", "UTF-32LE"},
		{"\x00\x00\xFE\xFF\x00\x00\x00U", "UTF-32BE"},
		{"U\x00A\x00:\x00 \x00*\x00\n\x00", "UTF-16LE"},
		{"\x00U\x00A\x00:\x00 \x00*\x00\n", "UTF-16BE"},
		{"\x00\x00\x00U\x00\x00\x00A\x00\x00\x00:\x00\x00\x00\n", "UTF-32BE"},
		{"User-agent: *\nDisallow: /\n", ""},
		{"User-agent: *\x00\nDisallow: /\n", ""},
		{"\x00\x00\x00\x00\x00\x00\x00\x00", ""},
		{"", ""},
	} {
		if got := formatWide(tt.src); got != tt.want {
			t.Errorf("formatWide(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestFormatGuess holds the legacy-encoding guess of RB203 to its
// documented heuristic.
func TestFormatGuess(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"Disallow: /\xea\xe0\xf2\xe0\xeb\xee\xe3\n", "windows-1251"},         // каталог
		{"Disallow: /\xca\xe0\xf2\xe0\xeb\xee\xe3\n", "windows-1251"},         // Каталог
		{"Disallow: /\xcb\xc1\xd4\xc1\xcc\xcf\xc7\n", "KOI8-R"},               // каталог
		{"Disallow: /caf\xe9\nDisallow: /na\xefve\n", "windows-1252"},         // café, naïve
		{"Disallow: /\x93\xfa\x96\x7b\x8c\xea/\x82\xa0\x82\xa2\n", "an East"}, // 日本語/あい in Shift_JIS
		{"Disallow: /ok\n", ""},
	} {
		got, _ := formatGuess(tt.src)
		if !strings.HasPrefix(got, tt.want) || tt.want == "" && got != "" {
			t.Errorf("formatGuess(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestIsHTML follows RB205's pattern: a tag name followed by white space
// or ">", any case; other angle brackets are not HTML.
func TestIsHTML(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want bool
	}{
		{"<!DOCTYPE html>", true},
		{"<!doctype\n  HTML>", true},
		{"<HTML lang=en>", true},
		{"x <body>", true},
		{"<head\n>", true},
		{"<htmlx>", false},
		{"# <a href=x>", false},
		{"User-agent: *\nDisallow: /<html/\n", false},
		{"<!doctype", false},
		{"<", false},
	} {
		if got := isHTML(tt.src); got != tt.want {
			t.Errorf("isHTML(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}

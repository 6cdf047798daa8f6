package sniff

import "testing"

func TestHTML(t *testing.T) {
	for _, tt := range []struct {
		body string
		want bool
	}{
		{"<!DOCTYPE html>\n<html><body>Not found</body></html>", true},
		{"\xef\xbb\xbf  <html lang=en>", true},
		{"<!-- a comment first -->\n<p>hello", true},
		{"<!-- Id = $Id: robots.txt $ -->\n\nUser-agent: *\nDisallow: /cgi-bin/\n", false}, // www.uspto.gov
		{"<p>hello", true},
		{"<HEAD>\n<title>x</title>", true},
		{"Error 404\n<html><body>Not found</body></html>", true}, // a tag after text
		{"<!doctype\nhtml>", true},
		{"User-agent: *\nDisallow: /\n", false},
		{"# <html> in a comment\nUser-agent: *\nDisallow: /x\n", false},
		{"  user-agent: *\n<body>\n", false},
		{"<a", false},      // a signature needs a space or '>' after it
		{"<htmlx>", false}, // not a tag of interest
		{"Disallow: /<head>", true},
		{"<!doctype\n  HTML>", true},
		{"x <body>", true},
		{"<head\n>", true},
		{"# <a href=x>", false},
		{"User-agent: *\nDisallow: /<html/\n", false},
		{"<!doctype", false},
		{"<", false},
		{"", false},
	} {
		if got := HTML(tt.body); got != tt.want {
			t.Errorf("HTML(%q) = %v, want %v", tt.body, got, tt.want)
		}
		if got := HTML([]byte(tt.body)); got != tt.want {
			t.Errorf("HTML([]byte(%q)) = %v, want %v", tt.body, got, tt.want)
		}
	}
}

func TestPage(t *testing.T) {
	for _, tt := range []struct {
		ct, body string
		want     bool
	}{
		{"text/html; charset=utf-8", "", true},
		{"application/xhtml+xml", "", true},
		{"text/plain", "<html>", false},
		{"", "<html><body>", true},
		{"", "%PDF-1.4", false},
		{"bad/type;;", "<!DOCTYPE html>", true},
	} {
		if got := Page(tt.ct, []byte(tt.body)); got != tt.want {
			t.Errorf("Page(%q, %q) = %v, want %v", tt.ct, tt.body, got, tt.want)
		}
	}
}

func TestWideAndBinary(t *testing.T) {
	for _, tt := range []struct {
		src, wide, binary string
	}{
		{"\xFF\xFEU\x00s\x00", "UTF-16LE", ""},
		{"\xFE\xFF\x00U\x00s", "UTF-16BE", ""},
		{"\xFF\xFE\x00\x00U\x00\x00\x00", "UTF-32LE", ""},
		{"U\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00", "UTF-16LE", ""},
		{"\x1F\x8B\x08\x00\x00\x00\x00\x00", "", "gzip"},
		{"\x89PNG\r\n\x1A\n\x00\x00", "", "PNG image"},
		{"%PDF-1.7\n", "", "PDF"},
		{"PK\x03\x04rest", "", "ZIP archive"},
		{"User-agent: *\x00\n", "", "NUL bytes"},
		{"\x01\x02\x03\x04abc", "", "control characters"},
		{"User-agent: *\r\nDisallow: /\t# tab\n", "", ""},
		{"\x00\x00\xFE\xFF\x00\x00\x00U", "UTF-32BE", ""},
		{"\x00U\x00A\x00:\x00 \x00*\x00\n", "UTF-16BE", ""},
		{"\x00\x00\x00U\x00\x00\x00A\x00\x00\x00:\x00\x00\x00\n", "UTF-32BE", ""},
		{"\x00\x00\x00\x00\x00\x00\x00\x00", "", "NUL bytes"},
		{"", "", ""},
	} {
		if got := Wide(tt.src); got != tt.wide {
			t.Errorf("Wide(%q) = %q, want %q", tt.src, got, tt.wide)
		}
		if got := Binary(tt.src); got != tt.binary {
			t.Errorf("Binary(%q) = %q, want %q", tt.src, got, tt.binary)
		}
	}
}

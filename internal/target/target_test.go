package target

import (
	"strings"
	"testing"
)

// TestBareHost: what is read as a host when a command or the web form
// fetches, and what is not.
func TestBareHost(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want string
	}{
		{"example.com", "https://example.com"},
		{"example.com/x", "https://example.com/x"},
		{"www.example.co.uk/robots.txt", "https://www.example.co.uk/robots.txt"},
		{"127.0.0.1:8080", "https://127.0.0.1:8080"},
		{"localhost:8080/p", "https://localhost:8080/p"},
		{"bücher.example", "https://bücher.example"},
		{"robots.txt", ""},
		{"example-robots.txt", ""},
		{"nogoogle/a", ""},
		{"/abs/path", ""},
		{"./file", ""},
		{"a b.com", ""},
		{"host:notaport", ""},
		{"com.", ""},
		{"", ""},
	} {
		got, ok := BareHost(tt.in)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("BareHost(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}

// TestRead: a URL is kept, a bare host read as https://, anything else
// is an error that says what to give.
func TestRead(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		bare     bool
		err      string
	}{
		{in: "https://example.com/", want: "https://example.com/"},
		{in: "http://127.0.0.1:8080/x", want: "http://127.0.0.1:8080/x"},
		{in: "HTTPS://Example.com", want: "HTTPS://Example.com"},
		{in: "example.com", want: "https://example.com", bare: true},
		{in: "127.0.0.1:8080", want: "https://127.0.0.1:8080", bare: true},
		{in: "", err: "empty URL"},
		{in: "http://", err: `"http://" is not a URL: no host`},
		{in: "http://[::1", err: `"http://[::1" is not a URL: missing ']' in host`},
		{in: "ftp://example.com/", err: `"ftp://example.com/": robots fetch only http and https URLs`},
		{in: "nonsense", err: `"nonsense" is not a URL: give one such as https://example.com/`},
	} {
		u, bare, err := Read(tt.in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if u != tt.want || bare != tt.bare || got != tt.err {
			t.Errorf("Read(%q) = %q, %v, %q; want %q, %v, %q", tt.in, u, bare, got, tt.want, tt.bare, tt.err)
		}
	}
}

// TestNote: the note names the argument and the URL read, and for a
// local address how to reach a server without TLS.
func TestNote(t *testing.T) {
	for _, tt := range []struct{ arg, u, want string }{
		{"example.com", "https://example.com", `reading "example.com" as https://example.com`},
		{"127.0.0.1:1", "https://127.0.0.1:1", `reading "127.0.0.1:1" as https://127.0.0.1:1 (a local server without TLS: give http://127.0.0.1:1)`},
		{"localhost:8080", "https://localhost:8080/robots.txt", `reading "localhost:8080" as https://localhost:8080/robots.txt (a local server without TLS: give http://localhost:8080/robots.txt)`},
	} {
		if got := Note(tt.arg, tt.u); got != tt.want {
			t.Errorf("Note(%q, %q) = %q, want %q", tt.arg, tt.u, got, tt.want)
		}
	}
	if h := Hint("http://127.0.0.1:1"); h != "" || !strings.Contains(Hint("https://[::1]:8080"), "http://[::1]:8080") {
		t.Errorf("Hint: %q", h)
	}
}

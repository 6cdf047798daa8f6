package termtext

import "testing"

// TestEscape: control characters, bidirectional formatting characters
// and invalid UTF-8 are escaped as Go writes them; printable text, a
// backslash included, is kept.
func TestEscape(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"plain title", "plain title"},
		{"évolution 日本 🤖", "évolution 日本 🤖"},
		{"# evil \x1b[31mRED\x1b[0m here", `# evil \x1b[31mRED\x1b[0m here`},
		{"title \x1b]0;pwned\x07", `title \x1b]0;pwned\x07`},
		{"a\rb\nc\td\x7f", `a\x0db\x0ac\td\x7f`},
		{"c1\u009b31m", `c1\x9b31m`},
		{"rtl\u202egnp.exe \u2066x\u2069 \u200f\u061c", `rtl\u202egnp.exe \u2066x\u2069 \u200f\u061c`},
		{"bad\xff\xc3utf8", `bad\xff\xc3utf8`},
		{`C:\dir\x1b`, `C:\dir\x1b`},
	} {
		got := Escape(tt.in)
		if got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if again := Escape(got); again != got {
			t.Errorf("Escape(Escape(%q)) = %q, not %q", tt.in, again, got)
		}
	}
}

// TestEscapeNoAlloc: text with nothing to escape comes back as it is.
func TestEscapeNoAlloc(t *testing.T) {
	s := "User-agent: * # a comment, 日本"
	if n := testing.AllocsPerRun(100, func() { _ = Escape(s) }); n != 0 {
		t.Errorf("Escape of safe text allocates %v times", n)
	}
}

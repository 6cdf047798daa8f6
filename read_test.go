package robots_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/robotskit/robots"
)

// TestRead: a body is read up to MaxBytes, and the line the limit cuts is
// dropped (Google's robots.txt documentation: content past 500 KiB is
// ignored).
func TestRead(t *testing.T) {
	head := "User-agent: *\nDisallow: /a\n"
	pad := strings.Repeat("# padding line\n", (robots.MaxBytes-len(head))/15)
	tests := []struct {
		name      string
		body      string
		want      string
		truncated bool
	}{
		{"small", head, head, false},
		{"exactly the limit", head + pad + strings.Repeat("#", robots.MaxBytes-len(head)-len(pad)), head + pad + strings.Repeat("#", robots.MaxBytes-len(head)-len(pad)), false},
		{"cut line dropped", head + pad + "Allow: /abc-public\n", head + pad, true},
		{"no line end at all", strings.Repeat("x", robots.MaxBytes+5), "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, truncated, err := robots.Read(strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if truncated != tt.truncated || !bytes.Equal(got, []byte(tt.want)) {
				t.Errorf("Read: %d bytes, truncated %v; want %d bytes, truncated %v", len(got), truncated, len(tt.want), tt.truncated)
			}
			if c := robots.Cut(tt.body); c != tt.want {
				t.Errorf("Cut: %d bytes, want %d", len(c), len(tt.want))
			}
			if c := robots.Cut([]byte(tt.body)); !bytes.Equal(c, []byte(tt.want)) {
				t.Errorf("Cut of bytes: %d bytes, want %d", len(c), len(tt.want))
			}
			if r := robots.Parse(got, robots.Google); strings.HasPrefix(tt.want, head) && r.Allowed("x", "/abd-secret") {
				t.Errorf("/abd-secret allowed after Read, want disallowed by line 2")
			}
		})
	}
}

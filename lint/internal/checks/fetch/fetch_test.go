package fetch

import (
	"context"
	"strings"
	"testing"

	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/syntax"
)

// rb122Diags returns the RB122 diagnostics of src fetched as f (nil for a
// file from disk).
func rb122Diags(src string, f *check.Fetch) []*check.Diagnostic {
	p := check.NewPass(context.Background(), syntax.Parse("", []byte(src)), "", f)
	if err := p.Run(rb122); err != nil {
		return nil
	}
	return p.Diagnostics()
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

	flat := "Disallow: /" + strings.Repeat("a", maxBody)
	if ds := rb122Diags(flat, nil); len(ds) != 1 || ds[0].Line != 0 {
		t.Errorf("RB122 on a body without line breaks: %v", ds)
	}

	exact := "User-agent: *\nDisallow: /" + strings.Repeat("a", maxBody-26) + "\n"
	if len(exact) != maxBody {
		t.Fatalf("exact body is %d bytes", len(exact))
	}
	if ds := rb122Diags(exact, nil); len(ds) != 0 {
		t.Errorf("RB122 on exactly 512,000 bytes: %v", ds)
	}

	small := "User-agent: *\nDisallow: /x\n"
	cut := &check.Fetch{Hops: []check.Hop{{URL: "https://example.com/robots.txt", Status: 200}}, ContentType: "text/plain", Size: 900000}
	if ds := rb122Diags(small, cut); len(ds) != 1 || ds[0].Line != 0 || !strings.Contains(ds[0].Message, "900,000 bytes") {
		t.Errorf("RB122 on a fetch cut short: %v", ds)
	}
	gone := &check.Fetch{Hops: []check.Hop{{URL: "https://example.com/robots.txt", Status: 404}}, Size: 900000}
	if ds := rb122Diags(small, gone); len(ds) != 0 {
		t.Errorf("RB122 on a 404: %v", ds)
	}
}

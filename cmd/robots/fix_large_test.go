package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixLargeFile: on a 2 MiB file whose last group names Googlebot,
// past the 500 KiB robots read, fix -diff prints the changed lines alone
// and keeps the group where it is; fmt, whose layout would move lines
// across the cut, leaves the file and says why.
func TestFixLargeFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /early/\n\nDisallow: /after-blank/\n")
	for i := 0; i < 60000; i++ {
		fmt.Fprintf(&b, "Disallow: /dir%05d/sub%02d/page.php\n", i, i%100)
	}
	b.WriteString("\nUser-agent: Googlebot\nDisallow: /late-rule/\n")
	path := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o666); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"fix", "-robots", "all", "-diff", path}, strings.NewReader(""), &out, &errb)
	if code != exitFinding {
		t.Errorf("fix: exit %d, want 1\n%s", code, errb.String())
	}
	d := out.String()
	if n := strings.Count(d, "\n"); n > 12 || !strings.Contains(d, "\n-\n") || strings.Contains(d, "Googlebot") {
		t.Errorf("fix -diff: %d lines:\n%.2000s", n, d)
	}
	if !strings.Contains(errb.String(), "kept: FX18 RB411: it would move lines across the first 500 KiB") {
		t.Errorf("fix: the reordering of the groups is not reported as refused:\n%s", errb.String())
	}
	out.Reset()
	errb.Reset()
	code = run(context.Background(), []string{"fmt", path}, strings.NewReader(""), &out, &errb)
	if code != exitError || out.Len() != 0 || !strings.Contains(errb.String(), "500 KiB") {
		t.Errorf("fmt: exit %d, %d bytes out, stderr %q", code, out.Len(), errb.String())
	}
}

package scan_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/robotskit/robots/scan"
)

// TestRunDirLinks: the symbolic links under a directory input are not
// followed. One whose target is outside the directory, file or directory,
// absolute or relative, is reported to OnError naming the link
// (ErrLinkOut) and counted as failed; so is one that leads nowhere or into
// a loop (ErrLinkBroken). One whose target is inside is left out without
// a word, its target being read under its own path, once — a link to a
// directory above it makes no loop. A directory input that is itself a
// link is walked. The walk is fs.WalkDir's
// (https://pkg.go.dev/io/fs#WalkDir: it "does not follow symbolic links").
func TestRunDirLinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	base := t.TempDir()
	dir := filepath.Join(base, "robots")
	outside := filepath.Join(base, "elsewhere")
	write := func(p, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		t.Helper()
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "a.example"), "User-agent: GPTBot\nDisallow: /\n")
	write(filepath.Join(dir, "sub", "b.example"), "User-agent: *\nAllow: /\n")
	write(filepath.Join(outside, "secret.example"), "User-agent: *\nDisallow: /\n")
	write(filepath.Join(outside, "more", "c.example"), "User-agent: *\nDisallow: /\n")
	link(filepath.Join(outside, "secret.example"), filepath.Join(dir, "out-file"))
	link(filepath.Join(outside, "more"), filepath.Join(dir, "out-dir"))
	link("../../elsewhere/secret.example", filepath.Join(dir, "sub", "out-relative"))
	link(filepath.Join(dir, "a.example"), filepath.Join(dir, "in-file"))
	link("..", filepath.Join(dir, "sub", "up"))
	link("b.example", filepath.Join(dir, "sub", "in-relative"))
	link("loop2", filepath.Join(dir, "loop1"))
	link("loop1", filepath.Join(dir, "loop2"))
	link("missing.example", filepath.Join(dir, "dangling"))
	rootLink := filepath.Join(base, "robots-link")
	link(dir, rootLink)

	for _, tt := range []struct {
		name string
		arg  string
	}{
		{"directory", dir},
		{"directory given as a link", rootLink},
		{"directory given with a trailing separator", dir + string(filepath.Separator)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			var errs []string
			res, err := scan.Run(t.Context(), &scan.Job{Inputs: []string{tt.arg}, Out: &out, Workers: 1,
				OnError: func(in string, err error) {
					rel, _ := filepath.Rel(tt.arg, in)
					kind := "other"
					switch {
					case errors.Is(err, scan.ErrLinkOut):
						kind = "out"
					case errors.Is(err, scan.ErrLinkBroken):
						kind = "broken"
					}
					errs = append(errs, filepath.ToSlash(rel)+": "+kind)
				}})
			if err != nil {
				t.Fatal(err)
			}
			var rows []string
			for l := range strings.SplitSeq(strings.TrimSpace(out.String()), "\n") {
				var row struct{ URL, Source string }
				if err := json.Unmarshal([]byte(l), &row); err != nil {
					t.Fatalf("%v: %s", err, l)
				}
				rel, _ := filepath.Rel(tt.arg, row.Source)
				rows = append(rows, filepath.ToSlash(rel))
			}
			slices.Sort(errs)
			wantErrs := []string{"dangling: broken", "loop1: broken", "loop2: broken", "out-dir: out", "out-file: out", "sub/out-relative: out"}
			if wantRows := []string{"a.example", "sub/b.example"}; !slices.Equal(rows, wantRows) || !slices.Equal(errs, wantErrs) {
				t.Errorf("rows %v, want %v\nerrors %v, want %v", rows, wantRows, errs, wantErrs)
			}
			if res.Failed != len(wantErrs) || res.Inputs != 2+len(wantErrs) {
				t.Errorf("Result.Failed %d, Inputs %d", res.Failed, res.Inputs)
			}
		})
	}
}

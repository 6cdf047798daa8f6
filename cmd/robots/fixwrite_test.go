package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixWriteAtomic: fix -w replaces a file through a temporary file in
// its directory renamed over it (a crash leaves the old text or the new,
// never half of one), keeps the file's permissions, writes the file a
// symbolic link leads to and leaves the link a link, and leaves nothing
// behind; a directory it cannot write in is an error and the file stays
// as it was.
func TestFixWriteAtomic(t *testing.T) {
	const bad = "User-agent: *\nDisalow: /private/\n"
	dir := t.TempDir()
	real := filepath.Join(dir, "real", "robots.txt")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte(bad), 0o640); err != nil {
		t.Fatal(err)
	}
	os.Chmod(real, 0o640) // whatever the umask
	link := filepath.Join(dir, "robots.txt")
	if err := os.Symlink(filepath.Join("real", "robots.txt"), link); err != nil {
		t.Fatal(err)
	}
	// A reader that opened the file before sees the old text whole: the
	// new text is another file, renamed over the old name, not written
	// into the old one.
	old, err := os.Open(real)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	// FX08 changes what robots do: exit 1, and the report on stderr.
	_, stderr, code := runScanArgs(t, nil, "fix", "-w", "-enable", "FX08", link)
	if code != 1 {
		t.Fatalf("fix -w: exit %d, %s", code, stderr)
	}
	got, err := os.ReadFile(real)
	if err != nil || !strings.Contains(string(got), "Disallow: /private/") || strings.Contains(string(got), "Disalow") {
		t.Errorf("the link's target reads %q, %v", got, err)
	}
	if kept, err := io.ReadAll(old); err != nil || string(kept) != bad {
		t.Errorf("a reader of the old file reads %q, %v: the file was written in place", kept, err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is no longer a link: %v", err)
	}
	if st, err := os.Stat(real); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640: %v", st.Mode().Perm(), err)
	}
	for _, d := range []string{dir, filepath.Dir(real)} {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".tmp") {
				t.Errorf("left behind: %s", filepath.Join(d, e.Name()))
			}
		}
	}

	// A directory that cannot be written in: an error, the file intact.
	if os.Geteuid() == 0 {
		return // root writes anywhere
	}
	locked := filepath.Join(dir, "locked")
	os.Mkdir(locked, 0o755)
	file := filepath.Join(locked, "robots.txt")
	os.WriteFile(file, []byte(bad), 0o644)
	os.Chmod(locked, 0o555)
	defer os.Chmod(locked, 0o755)
	if _, stderr, code := runScanArgs(t, nil, "fix", "-w", "-enable", "FX08", file); code != 2 || !strings.Contains(stderr, "permission denied") {
		t.Errorf("fix -w in a read-only directory: exit %d, %s", code, stderr)
	}
	if got, _ := os.ReadFile(file); string(got) != bad {
		t.Errorf("the file changed: %q", got)
	}
}

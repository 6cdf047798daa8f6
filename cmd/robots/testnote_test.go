package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestWideNote: robots test on a UTF-16 file says, as it does for a
// file past 500 KiB, why every robot finds no rules in it, and how to
// check and fix it.
func TestTestWideNote(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.example")
	u16 := "\xff\xfeU\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n\x00D\x00i\x00s\x00a\x00l\x00l\x00o\x00w\x00:\x00 \x00/\x00\n\x00"
	if err := os.WriteFile(path, []byte(u16), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runScanArgs(t, nil, "test", "-file", path, "-agent", "Googlebot", "/")
	want := "robots: " + path + " is UTF-16LE: robots read UTF-8 and find no rules in it (robots check: RB202; robots fix -enable FX02 transcodes it)\n"
	if code != 0 || stdout != "allowed /  (no group applies)\n" || stderr != want {
		t.Errorf("exit %d\nstdout %q\nstderr %q\nwant   %q", code, stdout, stderr, want)
	}
	// A UTF-8 file has no such note.
	os.WriteFile(path, []byte("User-agent: *\nDisallow: /\n"), 0o644)
	if _, stderr, _ := runScanArgs(t, nil, "test", "-file", path, "-agent", "Googlebot", "/"); stderr != "" {
		t.Errorf("a UTF-8 file: stderr %q", stderr)
	}
}

// TestBareHostNote: an argument that names no file and looks like a
// host is fetched over https, and the note says so: for a command that
// reads files, that there is no such file; for a local address, how to
// reach a server without TLS. (Loopback only: port 1 refuses.)
func TestBareHostNote(t *testing.T) {
	t.Chdir(t.TempDir()) // where no file is named 127.0.0.1:1
	_, stderr, _ := runScanArgs(t, nil, "check", "127.0.0.1:1")
	want := `robots: no file "127.0.0.1:1" here: fetching https://127.0.0.1:1 (a local server without TLS: give http://127.0.0.1:1)` + "\n"
	if !strings.HasPrefix(stderr, want) {
		t.Errorf("check: stderr %q\nwant it to start with %q", stderr, want)
	}
	_, stderr, _ = runScanArgs(t, nil, "fetch", "127.0.0.1:1")
	want = `robots: reading "127.0.0.1:1" as https://127.0.0.1:1 (a local server without TLS: give http://127.0.0.1:1)` + "\n"
	if !strings.HasPrefix(stderr, want) {
		t.Errorf("fetch: stderr %q\nwant it to start with %q", stderr, want)
	}
}

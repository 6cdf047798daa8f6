package txtar

import (
	"bytes"
	"testing"
)

// TestArchiveRoundTrip checks the txtar reader the golden runners rely on.
func TestArchiveRoundTrip(t *testing.T) {
	src := "comment\nmore\n-- args --\ntest\n-file\n$WORK/r.txt\n-- r.txt --\nUser-agent: *\n\n-- empty --\n-- last --\nno newline"
	a := Parse([]byte(src))
	if got := string(a.Comment); got != "comment\nmore\n" {
		t.Errorf("comment = %q", got)
	}
	want := []File{
		{"args", []byte("test\n-file\n$WORK/r.txt\n")},
		{"r.txt", []byte("User-agent: *\n\n")},
		{"empty", nil},
		{"last", []byte("no newline\n")},
	}
	if len(a.Files) != len(want) {
		t.Fatalf("got %d files, want %d", len(a.Files), len(want))
	}
	for i, f := range a.Files {
		if f.Name != want[i].Name || !bytes.Equal(f.Data, want[i].Data) {
			t.Errorf("file %d = %q %q, want %q %q", i, f.Name, f.Data, want[i].Name, want[i].Data)
		}
	}
	if got, want := string(a.Format()), src+"\n"; got != want {
		t.Errorf("format:\n%q\nwant\n%q", got, want)
	}
	for _, s := range []string{"--  --", "-- x", "--x --", "-- x --x"} {
		if _, ok := markerName([]byte(s)); ok {
			t.Errorf("%q taken for a file marker", s)
		}
	}
}

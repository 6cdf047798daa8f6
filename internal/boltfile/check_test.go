package boltfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestCheck: a sound bbolt file and an empty file pass; text, a
// truncated file and zeroed meta pages do not.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	db, err := bolt.Open(good, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket([]byte("b"))
		if err != nil {
			return err
		}
		for i := range 500 {
			if err := b.Put([]byte(strings.Repeat("k", 10)+string(rune('a'+i%26))+string(rune(i))), bytes.Repeat([]byte{'v'}, 300)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	pageSize := os.Getpagesize()
	for _, tc := range []struct {
		name string
		data []byte
		want string // in the error; "" for none
	}{
		{"bbolt file", data, ""},
		{"empty", nil, ""},
		{"text", []byte("User-agent: *\nDisallow: /\n"), "not a bbolt file"},
		{"truncated to a page", data[:pageSize], "under four pages"},
		{"truncated to half", data[:len(data)/2/pageSize*pageSize], "truncated"},
		{"truncated mid-page", data[:len(data)-100], "not a multiple of the page size"},
		{"meta pages zeroed", append(make([]byte, 2*pageSize), data[2*pageSize:]...), "not a bbolt file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, "f.db")
			if err := os.WriteFile(p, tc.data, 0o600); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			err = Check(f)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Check = %v, want nil", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Check = %v, want an error saying %q", err, tc.want)
			}
			if tc.name == "text" && !errors.Is(err, ErrNotBolt) {
				t.Errorf("Check = %v, want ErrNotBolt", err)
			}
		})
	}
}

// TestAsideName: the name has the time in UTC, and a taken name is not
// given again.
func TestAsideName(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.db")
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.FixedZone("X", 3600))
	first := AsideName(p, now)
	if want := p + ".corrupt-20260304T040607Z"; first != want {
		t.Fatalf("AsideName = %q, want %q", first, want)
	}
	if err := os.WriteFile(first, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if second := AsideName(p, now); second == first || !strings.HasPrefix(second, first) {
		t.Errorf("AsideName with %q taken = %q", first, second)
	}
}

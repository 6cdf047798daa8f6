package diskcache

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestParseDiskSpec: the path and the bound of "disk:PATH?max=SIZE".
func TestParseDiskSpec(t *testing.T) {
	for _, tc := range []struct {
		spec, path string
		max        int64
		err        string // in the error, when one is wanted
	}{
		{"disk:/var/cache/robots.db", "/var/cache/robots.db", 0, ""},
		{"disk:robots.db?max=100MB", "robots.db", 100_000_000, ""},
		{"disk:robots.db?max=100mb", "robots.db", 100_000_000, ""},
		{"disk:robots.db?max=1GiB", "robots.db", 1 << 30, ""},
		{"disk:robots.db?max=1.5GB", "robots.db", 1_500_000_000, ""},
		{"disk:robots.db?max=2097152", "robots.db", 2 << 20, ""},
		{"disk:robots.db?max=1MiB", "robots.db", 1 << 20, ""},
		{"disk:robots.db?max=none", "robots.db", -1, ""},
		{"disk:a?b/robots.db?max=2MiB", "a?b/robots.db", 2 << 20, ""},
		{"disk:robots.db?max=512KiB", "", 0, "at least 1MiB"},
		{"disk:robots.db?max=0", "", 0, "at least 1MiB"},
		{"disk:robots.db?max=-5MB", "", 0, "want a size"},
		{"disk:robots.db?max=100M", "", 0, "want a size such as 100MB"},
		{"disk:robots.db?max=", "", 0, "want a size"},
		{"disk:robots.db?max=lots", "", 0, "want a size"},
		{"disk:robots.db?size=1GB", "", 0, `unknown option "size=1GB"`},
		{"disk:a?b.db?", "a?b.db", 0, ""},
		{"disk:robots.db?max=1GB&", "", 0, `unknown option ""`},
		{"disk:?max=1GB", "", 0, "names no file"},
		{"disk:", "", 0, "names no file"},
	} {
		path, o, err := parseSpec(tc.spec)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one with %q", tc.spec, err, tc.err)
			}
			continue
		}
		if err != nil || path != tc.path || o.MaxBytes != tc.max {
			t.Errorf("%s: %q, max %d, %v; want %q, max %d", tc.spec, path, o.MaxBytes, err, tc.path, tc.max)
		}
	}
}

// TestOpenSpecBound: OpenSpec passes the bound of a disk spec on.
func TestOpenSpecBound(t *testing.T) {
	dir := t.TempDir()
	for spec, want := range map[string]int64{
		"disk:" + filepath.Join(dir, "a.db"):               DefaultMaxBytes,
		"disk:" + filepath.Join(dir, "b.db") + "?max=2MiB": 2 << 20,
		"disk:" + filepath.Join(dir, "c.db") + "?max=none": 0,
	} {
		d, err := OpenSpec(spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if d.maxBytes != want {
			t.Errorf("%s: bound %d; want %d", spec, d.maxBytes, want)
		}
		d.Close()
	}
	if _, err := OpenSpec("disk:" + filepath.Join(dir, "d.db") + "?max=tiny"); err == nil || !strings.Contains(err.Error(), "max=tiny") {
		t.Errorf("bad max: %v", err)
	}
}

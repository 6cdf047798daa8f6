package wire

import (
	"go/build"
	"testing"
)

// TestNoIO: package wire holds JSON types and pure conversions only; the
// network and contexts are internal/sitecheck's and the callers'. (It
// still reaches net/http through package fetch, whose Result Trace
// converts, so the test reads the package's own imports.)
func TestNoIO(t *testing.T) {
	p, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.GoFiles) == 0 {
		t.Fatal("no Go files")
	}
	forbidden := map[string]bool{"net/http": true, "net": true, "net/url": true, "context": true, "os": true, "io": true}
	for _, imp := range p.Imports {
		if forbidden[imp] || len(imp) > 9 && imp[:9] == "net/http/" {
			t.Errorf("package wire imports %q: it must do no I/O", imp)
		}
	}
}

package scan

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/robotskit/robots/internal/warcgen"
)

// TestRunPieces: a WARC file compressed a record at a time, read in
// pieces by many workers, gives the rows one reader gives, byte for byte:
// the same offsets, the revisit records filled from the responses before
// their piece, and the same errors for a damaged record.
func TestRunPieces(t *testing.T) {
	defer func(m, p, w int64) { splitMin, splitPiece, splitWindow = m, p, w }(splitMin, splitPiece, splitWindow)
	splitMin, splitPiece, splitWindow = 64<<10, 16<<10, 1<<20

	var buf bytes.Buffer
	if err := warcgen.Write(&buf, warcgen.Options{Captures: 3000, Seed: 7, Revisits: 150}); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	// Damage a record half way: a bad gzip member, told at its offset.
	data[len(data)/2] ^= 0xff
	path := filepath.Join(t.TempDir(), "cc.warc.gz")
	if err := os.WriteFile(path, data, 0o666); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(path)
	cuts := splitPoints(f, int64(len(data)), int(int64(len(data))/splitPiece))
	f.Close()
	if len(cuts) < 100 {
		t.Fatalf("%d pieces, want 100 or more", len(cuts))
	}

	var sums []string
	run := func(workers int) (string, []string) {
		var out bytes.Buffer
		var mu sync.Mutex
		var errs []string
		rbs, _ := SelectRobots("GPTBot,Googlebot")
		res, err := Run(context.Background(), &Job{Inputs: []string{path}, Workers: workers, Out: &out, Options: &Options{Robots: rbs},
			OnError: func(_ string, err error) { mu.Lock(); errs = append(errs, err.Error()); mu.Unlock() }})
		if err != nil || res.Captures < 2900 {
			t.Fatalf("workers %d: %v, %+v", workers, err, res)
		}
		slices.Sort(errs)
		var sj bytes.Buffer
		res.Summary.WriteJSON(&sj)
		sums = append(sums, sj.String())
		return out.String(), errs
	}
	want, wantErrs := run(1)
	got, gotErrs := run(8)
	if got != want {
		t.Errorf("rows read in pieces differ from one reader's")
	}
	if !slices.Equal(gotErrs, wantErrs) || len(wantErrs) == 0 {
		t.Errorf("errors read in pieces %q, by one reader %q", gotErrs, wantErrs)
	}
	// Run counts each shared verdict list once, times its sites: the
	// summary is the one Add gives row by row.
	var each Summary
	for line := range strings.SplitSeq(strings.TrimSpace(want), "\n") {
		var r Row
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		each.Add(&r)
	}
	var ej bytes.Buffer
	each.WriteJSON(&ej)
	if sums[0] != ej.String() || sums[1] != sums[0] {
		t.Errorf("Run's summaries differ from Add's, row by row")
	}
	// The revisits after a cut need the responses before it: without
	// them, the rows differ, so the test sees what it claims.
	defer func() { splitLookBack = true }()
	splitLookBack = false
	if blind, _ := run(8); blind == want {
		t.Error("no revisit crosses a cut: the test proves nothing")
	}
}

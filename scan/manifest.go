package scan

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ManifestName is the name of the manifest in Job.OutDir: one JSON
// object (a ManifestEntry) per line, appended as each input is done.
const ManifestName = "_manifest.jsonl"

// A ManifestEntry is one line of the manifest: an input done, and its
// part.
type ManifestEntry struct {
	// Input is the input string: the argument as given, the path of a
	// file under a directory argument, or the line of an @LIST with
	// Job.Base before it.
	Input string `json:"input"`
	// Part is the base name of the input's part (PartName).
	Part string `json:"part"`
	// Captures counts the captures read, Rows the rows written (a
	// capture whose analysis failed has none) and Errors the records or
	// lines that could not be read.
	Captures int64 `json:"captures"`
	Rows     int64 `json:"rows"`
	Errors   int64 `json:"errors"`
	// Bytes counts the bytes read, as stored.
	Bytes int64 `json:"bytes"`
	// Seconds is the time the input took, to the millisecond.
	Seconds float64 `json:"seconds"`
}

// PartName returns the base name of an input's part file: "part-", the
// first 16 hex digits of the SHA-256 (FIPS 180-4) of the input string,
// and the format's extension, as in "part-ba7816bf8f01cfea.parquet".
func PartName(input, format string) string {
	sum := sha256.Sum256([]byte(input))
	return "part-" + hex.EncodeToString(sum[:8]) + "." + format
}

// PartSummaryName returns the name of the summary beside a part:
// "part-ba7816bf8f01cfea.summary.json" for "part-ba7816bf8f01cfea.parquet".
func PartSummaryName(part string) string {
	return strings.TrimSuffix(part, filepath.Ext(part)) + ".summary.json"
}

// skipDone drops the inputs that an earlier run into the OutDir
// finished: listed in the manifest, with their part and its summary
// there. Their summaries count in this run's, and so do their errors in
// Result.Failed. Standard input is never skipped.
func (r *runner) skipDone(inputs []input) ([]input, error) {
	manifest := filepath.Join(r.j.OutDir, ManifestName)
	done := make(map[string]int64) // errors by input and part
	f, err := os.Open(manifest)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 4096), 1<<20)
		for sc.Scan() {
			var m ManifestEntry
			// A line cut by a crash does not parse, and is ignored.
			if json.Unmarshal(sc.Bytes(), &m) == nil && m.Input != "" {
				done[m.Input+"\x00"+m.Part] = m.Errors
			}
		}
		err := sc.Err()
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", manifest, err)
		}
	}
	kept := inputs[:0]
	skipped := 0
	for _, in := range inputs {
		part := PartName(in.name, r.format)
		errs, listed := done[in.name+"\x00"+part]
		if in.kind == inputStdin || !listed || !r.takePart(part) {
			kept = append(kept, in)
			continue
		}
		skipped++
		if errs > 0 {
			// Its errors, reported by the run that read it, still count.
			r.failed.Add(1)
			r.others++
		}
	}
	r.skipped = skipped
	if skipped > 0 && r.j.OnSkip != nil {
		r.call(func() { r.j.OnSkip(skipped, manifest) })
	}
	return kept, nil
}

// takePart reports whether part and its summary are in the OutDir, and
// adds the summary to the run's.
func (r *runner) takePart(part string) bool {
	if _, err := os.Stat(filepath.Join(r.j.OutDir, part)); err != nil {
		return false
	}
	f, err := os.Open(filepath.Join(r.j.OutDir, PartSummaryName(part)))
	if err != nil {
		return false
	}
	defer f.Close()
	sum, err := ReadSummary(f)
	if err != nil {
		return false
	}
	r.sum.Merge(sum)
	return true
}

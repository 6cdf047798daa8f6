package scan

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
)

// ManifestName is the name of the manifest in Job.OutDir: one JSON
// object (a ManifestPart) per line, appended as each part is done.
const ManifestName = "_manifest.jsonl"

// A ManifestPart is one line of the manifest of `robots scan -out`: a
// part done, the inputs whose rows it holds, and what a rerun checks
// before it trusts the part: its rows, its size and its SHA-256.
type ManifestPart struct {
	// Part is the base name of the part (GroupPartName).
	Part string `json:"part"`
	// Rows counts the rows of the part, Bytes its size in bytes, and
	// SHA256 is the hex SHA-256 (FIPS 180-4) of its bytes.
	Rows   int64  `json:"rows"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
	// Inputs are the inputs whose rows the part holds, in order; their
	// Part is the part's name.
	Inputs []ManifestEntry `json:"inputs"`
	// Seconds is the time from the part's first input to its last, to the
	// millisecond.
	Seconds float64 `json:"seconds"`
}

// A ManifestEntry is an input done, and its part: in a ManifestPart of
// the manifest of `robots scan -out`, and alone in the manifest of the
// Beam pipeline, which writes a part per input.
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

// GroupPartName returns the base name of the part of several inputs:
// PartName of one input; for more, "part-", the first 16 hex digits of
// the SHA-256 of the inputs joined by NUL bytes, and the extension.
func GroupPartName(inputs []string, format string) string {
	if len(inputs) == 1 {
		return PartName(inputs[0], format)
	}
	return PartName(strings.Join(inputs, "\x00"), format)
}

// PartSummaryName returns the name of the summary beside a part:
// "part-ba7816bf8f01cfea.summary.json" for "part-ba7816bf8f01cfea.parquet".
func PartSummaryName(part string) string {
	return strings.TrimSuffix(part, filepath.Ext(part)) + ".summary.json"
}

// Package scan reads robots.txt files in bulk: each recorded response (a
// Capture, from a WARC file, a directory of files or a JSON line) becomes
// one Row of facts and verdicts, and rows add up to a Summary whose tables
// merge exactly across shards.
//
// Analyze is pure: it reads nothing but its Capture, so the CLI's
// `robots scan`, a test and a cluster pipeline all get the same rows from
// the same bytes. A Row says what each selected robot of the registry
// (package agents) does on the site, under that robot's own profile and
// its own reading of the HTTP status (package fetch): whether it may fetch
// "/", whether it is barred from part of the site, which group and line
// decided, and whether it may train AI models on what it fetches (package
// usage); and the file's usage preference lines, which the Summary counts
// per purpose of use.
//
// Run is the batch engine of `robots scan`, which a Job configures: it
// expands the inputs (files, directories, URLs streamed with retries and
// resumption, @LIST files), keeps one Shard of them, reads them
// (ReadCaptures, the loop the Beam pipeline of beam/scanbeam runs too),
// analyses the captures with several workers and writes the rows in
// order, to a stream or to one part per input with a manifest that lets
// a rerun skip the inputs done. It prints nothing: errors and progress go
// to the Job's callbacks. NewWriter writes rows as JSON lines or CSV; the
// package scan/parquet writes Parquet, so that only its users link the
// Parquet library.
package scan

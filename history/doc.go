// Package history is a store of the versions of each site's robots.txt,
// in a bbolt file (go.etcd.io/bbolt): `robots watch` records what each
// fetch found, and a new version when it differs from the last one;
// `robots history`, `robots logs` and the timeline page read the versions
// back, and the one in force at a given time.
//
//	s, err := history.Open("robots-history.db", nil)
//	if err != nil { … }
//	defer s.Close()
//	stored, added, err := s.Record(history.Version{Site: "https://example.com", Time: fetched, …})
//	v, ok, err := s.At("https://example.com", when)
//
// Nothing is ever overwritten: a Version, once written, is never changed
// nor deleted, and a body is stored once per distinct SHA-256 (a site
// that flaps between two files, or many sites that serve the same one,
// store each body once). The one value updated in place is each site's
// Checked time, when Record last saw it.
//
// # Two processes
//
// A Store does not keep its file open between calls: each method opens
// it, runs one bbolt transaction and closes it, so that a `robots watch`
// daemon and a `robots history` command can use one file. A write takes
// the file's lock (bbolt's flock) for itself, a read shares it with
// other reads; a call waits for another process's lock up to
// Options.LockTimeout (10 s by default), then fails saying that the file
// is in use. So a caller that makes many lookups (one At per log line,
// say) reads Versions once instead.
//
// # Damaged files
//
// Open checks the file before bbolt maps it (a truncated file used to
// kill the process with SIGBUS in bbolt), as fetch/diskcache does. A
// file that is truncated, corrupt, or not a history store (not a bbolt
// file; a bbolt file with buckets of another kind, a disk cache, say; a
// format marker that is not this package's) is renamed to
// PATH.corrupt-TIME and a new, empty store is made: Store.MovedAside
// names the file kept, and Options.Logger is told. The exception is a
// store of a newer format version, written by a newer robots: Open fails
// and leaves it as it is. A read-only Open moves nothing: it fails on a
// damaged file, which the next read-write Open moves aside. An empty
// (0-byte) file is an empty store. A panic or memory fault of bbolt on a
// damaged page during a call is recovered: the call fails with an error
// that names the file; nothing is moved aside then.
//
// # Format, version 1
//
// The file is a bbolt file with four top-level buckets and nothing else:
//
//	meta     "format" → "robots-history/1" (the format and its version)
//	sites    one nested bucket per site, named by Version.Site as given
//	         to Record (at most 2048 bytes); in it, a key per version:
//	         Seq as 8 bytes, big-endian (1, 2, 3 … in order) → the
//	         Version as JSON (the fields' json tags), without the body
//	checked  site → when Record last saw the site (Site.Checked), as
//	         RFC 3339 text with nanoseconds; the one value updated in place
//	bodies   SHA-256 of a body, 64 lowercase hex digits → the body's bytes
//
// A Version's JSON has the keys "site", "seq", "time" (RFC 3339 with
// nanoseconds), "url", "final_url" (omitted when empty), "status",
// "outcome", "error" (omitted when empty), "sha256" ("" when there is no
// body), "size" and "truncated" (omitted when false); its body is the
// value of its "sha256" in bodies. The values are JSON, and bodies plain
// bytes, so that any bbolt tool reads the file. A reader of version 1
// ignores keys of a Version it does not know; a change that an older
// reader would misread changes the version, and a reader refuses a file
// of a version above its own.
//
// # Limits
//
// Every read is bounded: a body at most Options.MaxBody (512 KiB by
// default), a Version's JSON at most 64 KiB, a site name at most 2048
// bytes, Versions at most 100,000 versions of a site and Sites at most
// 1,000,000 sites; a file beyond these is an error, not a crash.
package history
